/*
 * Schema: db_schema_new (copy + validation), class lookup, out-of-range
 * indices, persisted names, NULL arguments.
 */
#include "fixtures.h"

static db_schema_t *one_class(const char *name, const db_property_info_t *props, size_t n) {
    db_class_info_t c = fx_class(name, props, n);
    return db_schema_new(&c, 1);
}

TEST(new_and_inspect) {
    db_class_info_t info;
    size_t index = 99;
    db_schema_t *schema = fx_schema();
    CHECK_EQ_UINT(db_schema_get_class_count(schema), 4);
    REQUIRE_OK(db_schema_find_class(schema, "Person", &index));
    CHECK_LAST_ERROR(DB_OK);
    REQUIRE(index < 4);
    memset(&info, 0, sizeof info);
    REQUIRE_OK(db_schema_get_class(schema, index, &info));
    CHECK_EQ_STR(info.name, "Person");
    CHECK_EQ_UINT(info.num_properties, 4);
    CHECK_EQ_UINT(info.key, 0); /* not bound to a realm */
    REQUIRE(info.properties != NULL);
    CHECK_EQ_STR(info.properties[0].name, "id");
    CHECK_EQ_INT(info.properties[0].type, DB_PROPERTY_TYPE_INT);
    CHECK(info.properties[0].flags & DB_PROPERTY_FLAG_PRIMARY_KEY);
    CHECK_EQ_INT(info.properties[0].key, -1);
    CHECK_EQ_STR(info.properties[1].name, "name");
    CHECK_EQ_INT(info.properties[1].type, DB_PROPERTY_TYPE_STRING);
    CHECK_EQ_INT(info.properties[1].flags & DB_PROPERTY_FLAG_NULLABLE, 0);
    CHECK_EQ_STR(info.properties[3].name, "email");
    CHECK(info.properties[3].flags & DB_PROPERTY_FLAG_NULLABLE);
    db_schema_release(schema);
}

TEST(find_and_get_agree) {
    static const char *const names[] = {"Person", "AllTypes", "Log", "Tagged"};
    size_t i, index;
    db_class_info_t info;
    db_schema_t *schema = fx_schema();
    for (i = 0; i < 4; i++) {
        REQUIRE_OK(db_schema_find_class(schema, names[i], &index));
        REQUIRE_OK(db_schema_get_class(schema, index, &info));
        CHECK_EQ_STR(info.name, names[i]);
    }
    /* find_class and get_class agree for every index */
    for (i = 0; i < 4; i++) {
        REQUIRE_OK(db_schema_get_class(schema, i, &info));
        REQUIRE_OK(db_schema_find_class(schema, info.name, &index));
        CHECK_EQ_UINT(index, i);
    }
    db_schema_release(schema);
}

TEST(all_property_types) {
    db_class_info_t info;
    size_t index, i;
    db_schema_t *schema = fx_schema();
    REQUIRE_OK(db_schema_find_class(schema, "AllTypes", &index));
    REQUIRE_OK(db_schema_get_class(schema, index, &info));
    REQUIRE(info.num_properties == FX_COUNT(fx_all_types_props));
    for (i = 0; i < info.num_properties; i++) {
        CHECK_EQ_STR(info.properties[i].name, fx_all_types_props[i].name);
        CHECK_EQ_INT(info.properties[i].type, fx_all_types_props[i].type);
        CHECK_EQ_INT(info.properties[i].flags & (DB_PROPERTY_FLAG_NULLABLE | DB_PROPERTY_FLAG_PRIMARY_KEY),
                     fx_all_types_props[i].flags);
    }
    db_schema_release(schema);
}

TEST(input_is_copied) {
    char class_name[16] = "Mutable";
    char prop_name[16] = "field";
    db_property_info_t props[1] = {FX_PROP(NULL, DB_PROPERTY_TYPE_INT, 0)};
    db_class_info_t c, info;
    db_schema_t *schema;
    props[0].name = prop_name;
    c = fx_class(class_name, props, 1);
    schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
    /* Scribble over everything the caller passed in. */
    strcpy(class_name, "XXXXXXX");
    strcpy(prop_name, "YYYYY");
    props[0].type = DB_PROPERTY_TYPE_STRING;
    REQUIRE_OK(db_schema_get_class(schema, 0, &info));
    CHECK_EQ_STR(info.name, "Mutable");
    CHECK_EQ_STR(info.properties[0].name, "field");
    CHECK_EQ_INT(info.properties[0].type, DB_PROPERTY_TYPE_INT);
    db_schema_release(schema);
}

TEST(persisted_names) {
    static const db_property_info_t props[] = {
        FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
        FX_PROP_PERSISTED("firstName", "first_name", DB_PROPERTY_TYPE_STRING, 0),
        FX_PROP_PERSISTED("nick", "", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
    };
    db_class_info_t info;
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(one_class("User", props, 3));
    REQUIRE_OK(db_schema_get_class(schema, 0, &info));
    CHECK_EQ_STR(info.properties[1].name, "firstName");
    CHECK_EQ_STR(info.properties[1].persisted_name, "first_name");
    /* NULL or "" means the same as the name. */
    CHECK(info.properties[0].persisted_name == NULL || strcmp(info.properties[0].persisted_name, "") == 0 ||
          strcmp(info.properties[0].persisted_name, "id") == 0);
    CHECK(info.properties[2].persisted_name == NULL || strcmp(info.properties[2].persisted_name, "") == 0 ||
          strcmp(info.properties[2].persisted_name, "nick") == 0);
    db_schema_release(schema);
}

TEST(get_class_out_of_range) {
    db_class_info_t info;
    db_schema_t *schema = fx_schema();
    memset(&info, 0, sizeof info);
    CHECK_STATUS(db_schema_get_class(schema, 4, &info), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_schema_get_class(schema, 1000, &info), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_schema_get_class(schema, (size_t)-1, &info), DB_ERR_OUT_OF_RANGE);
    CHECK(info.name == NULL); /* not written on failure */
    db_schema_release(schema);
}

TEST(empty_schema) {
    db_class_info_t info;
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(NULL, 0));
    CHECK_EQ_UINT(db_schema_get_class_count(schema), 0);
    CHECK_STATUS(db_schema_get_class(schema, 0, &info), DB_ERR_OUT_OF_RANGE);
    db_schema_release(schema);
}

TEST(find_class_not_found) {
    size_t index = 42;
    db_schema_t *schema = fx_schema();
    CHECK_STATUS(db_schema_find_class(schema, "Nope", &index), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_schema_find_class(schema, "person", &index), DB_ERR_NOT_FOUND); /* case-sensitive */
    CHECK_STATUS(db_schema_find_class(schema, "", &index), DB_ERR_NOT_FOUND);
    CHECK_EQ_UINT(index, 42);
    db_schema_release(schema);
}

TEST(null_arguments) {
    db_class_info_t info;
    size_t index;
    db_schema_t *schema = fx_schema();
    CHECK_NULL_ERR(db_schema_new(NULL, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_UINT(db_schema_get_class_count(NULL), 0);
    CHECK_STATUS(db_schema_get_class(NULL, 0, &info), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_schema_get_class(schema, 0, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_schema_find_class(NULL, "Person", &index), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_schema_find_class(schema, NULL, &index), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_schema_find_class(schema, "Person", NULL), DB_ERR_INVALID_ARGUMENT);
    db_schema_release(schema);
}

TEST(null_names_in_class_info) {
    static const db_property_info_t good[] = {FX_PROP("x", DB_PROPERTY_TYPE_INT, 0)};
    static const db_property_info_t unnamed[] = {FX_PROP(NULL, DB_PROPERTY_TYPE_INT, 0)};
    db_class_info_t c = fx_class(NULL, good, 1);
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_INVALID_ARGUMENT);
    c = fx_class("C", unnamed, 1);
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_INVALID_ARGUMENT);
    c = fx_class("C", NULL, 1); /* properties NULL with a count */
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_INVALID_ARGUMENT);
}

TEST(invalid_duplicate_class) {
    db_class_info_t classes[2];
    classes[0] = fx_class("Person", fx_person_props, FX_COUNT(fx_person_props));
    classes[1] = fx_class("Person", fx_log_props, FX_COUNT(fx_log_props));
    CHECK_NULL_ERR(db_schema_new(classes, 2), DB_ERR_SCHEMA_INVALID);
}

TEST(invalid_duplicate_property) {
    static const db_property_info_t props[] = {
        FX_PROP("a", DB_PROPERTY_TYPE_INT, 0),
        FX_PROP("a", DB_PROPERTY_TYPE_STRING, 0),
    };
    CHECK_NULL_ERR(one_class("C", props, 2), DB_ERR_SCHEMA_INVALID);
}

TEST(invalid_persisted_name_clash) {
    /* "b" would be stored in the column "a", which "a" already uses. */
    static const db_property_info_t props[] = {
        FX_PROP("a", DB_PROPERTY_TYPE_INT, 0),
        FX_PROP_PERSISTED("b", "a", DB_PROPERTY_TYPE_INT, 0),
    };
    CHECK_NULL_ERR(one_class("C", props, 2), DB_ERR_SCHEMA_INVALID);
}

TEST(invalid_two_primary_keys) {
    static const db_property_info_t props[] = {
        FX_PROP("a", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
        FX_PROP("b", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY),
    };
    CHECK_NULL_ERR(one_class("C", props, 2), DB_ERR_SCHEMA_INVALID);
}

TEST(invalid_primary_key_types) {
    static const db_property_type_e bad[] = {
        DB_PROPERTY_TYPE_BOOL, DB_PROPERTY_TYPE_FLOAT, DB_PROPERTY_TYPE_DOUBLE, DB_PROPERTY_TYPE_DATA,
        DB_PROPERTY_TYPE_TIMESTAMP, DB_PROPERTY_TYPE_DECIMAL128,
    };
    static const db_property_type_e good[] = {
        DB_PROPERTY_TYPE_INT, DB_PROPERTY_TYPE_STRING, DB_PROPERTY_TYPE_OBJECT_ID, DB_PROPERTY_TYPE_UUID,
    };
    size_t i;
    db_property_info_t props[1] = {FX_PROP("pk", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY)};
    for (i = 0; i < FX_COUNT(bad); i++) {
        props[0].type = bad[i];
        CHECK_NULL_ERR(one_class("C", props, 1), DB_ERR_SCHEMA_INVALID);
    }
    for (i = 0; i < FX_COUNT(good); i++) {
        db_schema_t *s;
        props[0].type = good[i];
        s = one_class("C", props, 1);
        if (!s) {
            harness_error_t e = harness_last_error();
            harness_fail_with_error(__FILE__, __LINE__, &e, "primary key of type %d rejected", (int)good[i]);
        }
        db_schema_release(s);
    }
}

TEST(invalid_indexed_types) {
    static const db_property_type_e bad[] = {
        DB_PROPERTY_TYPE_FLOAT, DB_PROPERTY_TYPE_DOUBLE, DB_PROPERTY_TYPE_DATA, DB_PROPERTY_TYPE_DECIMAL128,
    };
    size_t i;
    db_property_info_t props[1] = {FX_PROP("x", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_INDEXED)};
    db_schema_t *ok = one_class("C", props, 1);
    CHECK(ok != NULL);
    db_schema_release(ok);
    for (i = 0; i < FX_COUNT(bad); i++) {
        props[0].type = bad[i];
        CHECK_NULL_ERR(one_class("C", props, 1), DB_ERR_SCHEMA_INVALID);
    }
}

TEST(invalid_empty_names) {
    static const db_property_info_t good[] = {FX_PROP("x", DB_PROPERTY_TYPE_INT, 0)};
    static const db_property_info_t empty_prop[] = {FX_PROP("", DB_PROPERTY_TYPE_INT, 0)};
    CHECK_NULL_ERR(one_class("", good, 1), DB_ERR_SCHEMA_INVALID);
    CHECK_NULL_ERR(one_class("C", empty_prop, 1), DB_ERR_SCHEMA_INVALID);
}

TEST(invalid_property_type_enum) {
    /* db_schema_new documents unknown types as DB_ERR_SCHEMA_INVALID (the
     * status list in db_types.h would also allow DB_ERR_INVALID_ARGUMENT for
     * "a bad enum value"; the function's own documentation is followed). */
    db_property_info_t props[1] = {FX_PROP("x", (db_property_type_e)0, 0)};
    CHECK_NULL_ERR(one_class("C", props, 1), DB_ERR_SCHEMA_INVALID);
    props[0].type = (db_property_type_e)99;
    CHECK_NULL_ERR(one_class("C", props, 1), DB_ERR_SCHEMA_INVALID);
    props[0].type = DB_PROPERTY_TYPE_INT;
    props[0].flags = 64; /* an unknown flag */
    CHECK_NULL_ERR(one_class("C", props, 1), DB_ERR_SCHEMA_INVALID);
}

static const db_property_info_t indexed_props[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_PROP("score", DB_PROPERTY_TYPE_DOUBLE, 0),
};

/* A schema of one class with one compound index; NULL (and the error) when it is invalid. */
static db_schema_t *with_index(const char *const *names, size_t n) {
    db_index_info_t index;
    db_class_info_t c = fx_class("Person", indexed_props, FX_COUNT(indexed_props));
    index.properties = names;
    index.num_properties = n;
    c.indexes = &index;
    c.num_indexes = 1;
    return db_schema_new(&c, 1);
}

TEST(compound_indexes_round_trip) {
    static const char *const names[] = {"age", "name"};
    db_class_info_t info;
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(with_index(names, 2));
    REQUIRE_OK(db_schema_get_class(schema, 0, &info));
    CHECK_EQ_UINT(info.num_indexes, 1);
    REQUIRE(info.indexes != NULL);
    CHECK_EQ_UINT(info.indexes[0].num_properties, 2);
    CHECK_EQ_STR(info.indexes[0].properties[0], "age");
    CHECK_EQ_STR(info.indexes[0].properties[1], "name");
    db_schema_release(schema);
    /* zero-initialized class infos declare none */
    schema = fx_person_schema();
    REQUIRE_OK(db_schema_get_class(schema, 0, &info));
    CHECK_EQ_UINT(info.num_indexes, 0);
    db_schema_release(schema);
}

TEST(invalid_compound_indexes) {
    static const char *const one[] = {"age"};
    static const char *const twice[] = {"age", "age"};
    static const char *const unknown[] = {"age", "nope"};
    static const char *const unindexable[] = {"age", "score"};
    static const char *const with_null[] = {"age", NULL};
    db_class_info_t c = fx_class("Person", indexed_props, FX_COUNT(indexed_props));
    CHECK_NULL_ERR(with_index(one, 1), DB_ERR_SCHEMA_INVALID);
    CHECK_NULL_ERR(with_index(twice, 2), DB_ERR_SCHEMA_INVALID);
    CHECK_NULL_ERR(with_index(unknown, 2), DB_ERR_SCHEMA_INVALID);
    CHECK_NULL_ERR(with_index(unindexable, 2), DB_ERR_SCHEMA_INVALID);
    CHECK_NULL_ERR(with_index(with_null, 2), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(with_index(NULL, 2), DB_ERR_INVALID_ARGUMENT);
    c.num_indexes = 1; /* indexes left NULL */
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_INVALID_ARGUMENT);
}

TEST(release_null) {
    db_schema_release(NULL);
    CHECK(1);
}

HARNESS_MAIN("schema",
    HARNESS_ENTRY(new_and_inspect),
    HARNESS_ENTRY(find_and_get_agree),
    HARNESS_ENTRY(all_property_types),
    HARNESS_ENTRY(input_is_copied),
    HARNESS_ENTRY(persisted_names),
    HARNESS_ENTRY(get_class_out_of_range),
    HARNESS_ENTRY(empty_schema),
    HARNESS_ENTRY(find_class_not_found),
    HARNESS_ENTRY(null_arguments),
    HARNESS_ENTRY(null_names_in_class_info),
    HARNESS_ENTRY(invalid_duplicate_class),
    HARNESS_ENTRY(invalid_duplicate_property),
    HARNESS_ENTRY(invalid_persisted_name_clash),
    HARNESS_ENTRY(invalid_two_primary_keys),
    HARNESS_ENTRY(invalid_primary_key_types),
    HARNESS_ENTRY(invalid_indexed_types),
    HARNESS_ENTRY(invalid_empty_names),
    HARNESS_ENTRY(invalid_property_type_enum),
    HARNESS_ENTRY(compound_indexes_round_trip),
    HARNESS_ENTRY(invalid_compound_indexes),
    HARNESS_ENTRY(release_null))
