/*
 * Queries across links and collections through the C API: key paths through links, ANY/ALL/NONE,
 * collection operators, SUBQUERY, backlinks, dictionaries, list positions, link arguments,
 * @type, IN a collection; sorting and DISTINCT by key paths through to-one links
 * (db_results_sort_by_key_paths, db_results_distinct_by_key_paths); and their error paths.
 */
#include "fixtures.h"

static const db_property_info_t person_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_LINK_LIST("dogs", "Dog"),
    FX_COLLECTION("tags", DB_PROPERTY_TYPE_STRING, DB_COLLECTION_SET, 0),
    FX_COLLECTION("meta", DB_PROPERTY_TYPE_INT, DB_COLLECTION_DICTIONARY, 0),
    FX_PROP("extra", DB_PROPERTY_TYPE_MIXED, 0),
};
static const db_property_info_t dog_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_LINK("owner", "Person"),
    FX_BACKLINKS("owners", "Person", "dogs"),
};

typedef struct world {
    db_realm_t *realm;
    db_class_key_t person, dog;
    db_object_t *ann, *bob, *rex, *fido, *max;
} world_t;

static db_object_t *make(world_t *w, const char *cls, const char *const *names, const db_value_t *values, size_t n) {
    return REQUIRE_PTR(fx_create(w->realm, cls, names, values, n, DB_UPSERT_NONE));
}

/* Ann (30): dogs Rex 5, Fido 12; tags x; meta a 1; extra 2.5.  Bob (40): dogs Max 2; extra "hi".
 * Rex and Fido are owned by Ann, Max by Bob. */
static world_t open_world(void) {
    world_t w;
    db_class_info_t c[2];
    c[0] = fx_class("Person", person_props, FX_COUNT(person_props));
    c[1] = fx_class("Dog", dog_props, FX_COUNT(dog_props));
    db_schema_t *schema = REQUIRE_PTR(db_schema_new(c, 2));
    w.realm = fx_open_with(harness_tmpfile("graph_queries.realm"), schema, 1);
    db_schema_release(schema);
    w.person = fx_class_key(w.realm, "Person");
    w.dog = fx_class_key(w.realm, "Dog");
    REQUIRE_OK(db_realm_begin_write(w.realm));
    const char *person_names[] = {"name", "age", "extra"};
    db_value_t ann[] = {v_str("Ann"), v_int(30), v_double(2.5)}, bob[] = {v_str("Bob"), v_int(40), v_str("hi")};
    w.ann = make(&w, "Person", person_names, ann, 3);
    w.bob = make(&w, "Person", person_names, bob, 3);
    const char *dog_names[] = {"name", "age", "owner"};
    db_value_t rex[] = {v_str("Rex"), v_int(5), v_link(w.ann)}, fido[] = {v_str("Fido"), v_int(12), v_link(w.ann)};
    db_value_t max[] = {v_str("Max"), v_int(2), v_link(w.bob)};
    w.rex = make(&w, "Dog", dog_names, rex, 3);
    w.fido = make(&w, "Dog", dog_names, fido, 3);
    w.max = make(&w, "Dog", dog_names, max, 3);
    db_list_t *dogs = REQUIRE_PTR(db_object_get_list(w.ann, fx_prop_key(w.realm, "Person", "dogs")));
    db_value_t link = v_link(w.rex);
    REQUIRE_OK(db_list_insert(dogs, 0, &link));
    link = v_link(w.fido);
    REQUIRE_OK(db_list_insert(dogs, 1, &link));
    db_list_release(dogs);
    dogs = REQUIRE_PTR(db_object_get_list(w.bob, fx_prop_key(w.realm, "Person", "dogs")));
    link = v_link(w.max);
    REQUIRE_OK(db_list_insert(dogs, 0, &link));
    db_list_release(dogs);
    db_set_t *tags = REQUIRE_PTR(db_object_get_set(w.ann, fx_prop_key(w.realm, "Person", "tags")));
    db_value_t tag = v_str("x");
    REQUIRE_OK(db_set_insert(tags, &tag, NULL));
    db_set_release(tags);
    db_dictionary_t *meta = REQUIRE_PTR(db_object_get_dictionary(w.ann, fx_prop_key(w.realm, "Person", "meta")));
    db_value_t one = v_int(1);
    REQUIRE_OK(db_dictionary_insert(meta, "a", &one));
    db_dictionary_release(meta);
    REQUIRE_OK(db_realm_commit(w.realm));
    return w;
}

static void close_world(world_t *w) {
    db_object_release(w->ann);
    db_object_release(w->bob);
    db_object_release(w->rex);
    db_object_release(w->fido);
    db_object_release(w->max);
    db_realm_release(w->realm);
}

/* The number of objects of `cls` a query matches (-1 on error). */
static long query_count(world_t *w, db_class_key_t cls, const char *query, const db_query_arg_t *args, size_t num_args) {
    db_results_t *all = REQUIRE_PTR(db_results_from_class(w->realm, cls));
    db_results_t *matching = db_results_filter(all, query, args, num_args);
    db_results_release(all);
    if (!matching) return -1;
    size_t count = 0;
    REQUIRE_OK(db_results_count(matching, &count));
    db_results_release(matching);
    return (long)count;
}

/* The value of a string property of the first `n` results, joined by spaces. */
static void names_of(db_results_t *results, db_property_key_t name, char *out, size_t size) {
    db_value_t values[8];
    size_t n = 0;
    REQUIRE_OK(db_results_get_values(results, name, 0, 8, values, &n));
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strncat(out, " ", size - strlen(out) - 1);
        strncat(out, values[i].string.data, values[i].string.size < size - strlen(out) - 1 ? values[i].string.size : size - strlen(out) - 1);
    }
}

TEST(key_paths_quantifiers_and_collection_operators) {
    world_t w = open_world();
    CHECK_EQ_INT(query_count(&w, w.dog, "owner.name == 'Ann'", NULL, 0), 2);
    CHECK_EQ_INT(query_count(&w, w.dog, "owner.age > 35", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age > 10", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "ALL dogs.age > 3", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "NONE dogs.age > 3", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.@count == 2", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.@avg.age > 8", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.@sum.age == 2", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count == 1", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs[FIRST].name == 'Rex' AND dogs[LAST].name == 'Fido'", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "'x' IN tags", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "meta['a'] == 1 AND meta.@keys == 'a'", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "extra.@type == 'numeric'", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.dog, "owners.@count == 1 AND @links.Person.dogs.name == 'Bob'", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.dog, "@links.@count == 1", NULL, 0), 3);
    close_world(&w);
}

/* Arithmetic on each value of a collection, and on a list with a constant (realm-core's forms). */
TEST(arithmetic_on_collections_and_lists) {
    world_t w = open_world();
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age * 2 > 20", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "ALL dogs.age + age > 40", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "ALL {8, 10} / 2 >= ANY dogs.age", NULL, 0), 1);
    db_value_t two = v_int(2);
    db_query_arg_t arg = {.num_values = 1, .is_list = false, .values = &two};
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age * $0 > 20", &arg, 1), 1);
    close_world(&w);
}

TEST(link_arguments) {
    world_t w = open_world();
    db_value_t bob = v_link(w.bob), fido = v_link(w.fido);
    db_query_arg_t arg = {.num_values = 1, .is_list = false, .values = &bob};
    CHECK_EQ_INT(query_count(&w, w.dog, "owner == $0", &arg, 1), 1);
    CHECK_EQ_INT(query_count(&w, w.dog, "owner != $0", &arg, 1), 2);
    arg.values = &fido;
    CHECK_EQ_INT(query_count(&w, w.person, "ANY dogs == $0", &arg, 1), 1);
    db_value_t both[2] = {v_link(w.rex), v_link(w.max)};
    db_query_arg_t list = {.num_values = 2, .is_list = true, .values = both};
    CHECK_EQ_INT(query_count(&w, w.person, "ANY dogs IN $0", &list, 1), 2);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs == ANY $0", &list, 1), 2);
    /* no quantifier on either side: the list itself, position by position (realm-core) */
    CHECK_EQ_INT(query_count(&w, w.person, "dogs IN $0", &list, 1), 0);
    CHECK_EQ_INT(query_count(&w, w.dog, "owner == nil", NULL, 0), 0);
    close_world(&w);
}

TEST(values_by_key_path) {
    /* Realm's value(forKeyPath:): owner.name of each dog, in results order; Stray has no owner. */
    world_t w = open_world();
    db_results_t *dogs = REQUIRE_PTR(db_results_from_class(w.realm, w.dog));
    db_results_t *by_age = REQUIRE_PTR(db_results_filter(dogs, "TRUEPREDICATE SORT(age ASC)", NULL, 0));
    db_value_t values[8];
    size_t got = 99;
    db_object_t *stray;
    REQUIRE_OK(db_realm_begin_write(w.realm));
    {
        const char *names[] = {"name", "age"};
        db_value_t row[] = {v_str("Stray"), v_int(1)};
        stray = make(&w, "Dog", names, row, 2);
    }
    CHECK_OK(db_results_get_values_by_key_path(by_age, "owner.name", 0, 8, values, &got));
    CHECK_EQ_UINT(got, 4); /* Stray 1, Max 2, Rex 5, Fido 12 */
    CHECK_EQ_INT(values[0].type, DB_VALUE_NULL);
    CHECK(values[1].type == DB_VALUE_STRING && values[1].string.size == 3 && memcmp(values[1].string.data, "Bob", 3) == 0);
    CHECK(values[3].type == DB_VALUE_STRING && memcmp(values[3].string.data, "Ann", 3) == 0);
    CHECK_OK(db_results_get_values_by_key_path(by_age, "owner.extra", 1, 2, values, &got));
    CHECK_EQ_UINT(got, 2);
    CHECK_EQ_INT(values[0].type, DB_VALUE_STRING); /* Bob's extra: "hi" */
    CHECK_EQ_INT(values[1].type, DB_VALUE_DOUBLE); /* Ann's: 2.5 */
    CHECK_OK(db_results_get_values_by_key_path(by_age, "owner", 2, 1, values, &got));
    CHECK_EQ_INT(values[0].type, DB_VALUE_LINK);
    CHECK_OK(db_results_get_values_by_key_path(by_age, "name", 4, 8, values, &got));
    CHECK_EQ_UINT(got, 0); /* start at the end */
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "name", 5, 8, values, &got), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "owners.name", 0, 8, values, &got), DB_ERR_QUERY);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "owner.dogs", 0, 8, values, &got), DB_ERR_QUERY);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "owner.", 0, 8, values, &got), DB_ERR_QUERY);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, NULL, 0, 8, values, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "name", 0, 8, NULL, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values_by_key_path(by_age, "name", 0, 8, values, NULL), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_cancel_write(w.realm));
    db_object_release(stray);
    db_results_release(by_age);
    db_results_release(dogs);
    close_world(&w);
}

static bool is_str(const db_value_t *v, const char *s) {
    return v->type == DB_VALUE_STRING && v->string.size == strlen(s) && memcmp(v->string.data, s, v->string.size) == 0;
}

TEST(value_lists_by_key_path) {
    /* value(forKeyPath:) through to-many links: each person's dogs' names, values and offsets. */
    world_t w = open_world();
    db_results_t *people = REQUIRE_PTR(db_results_from_class(w.realm, w.person));
    db_results_t *by_age = REQUIRE_PTR(db_results_filter(people, "TRUEPREDICATE SORT(age ASC)", NULL, 0));
    db_value_t values[8];
    size_t offsets[4], objects = 99, count = 99;
    bool single = true;
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 0, 3, values, 8, offsets, &objects, &count, &single));
    CHECK_EQ_UINT(objects, 2); /* Ann: Rex, Fido; Bob: Max */
    CHECK_EQ_UINT(count, 3);
    CHECK(!single);
    CHECK_EQ_UINT(offsets[0], 0);
    CHECK_EQ_UINT(offsets[1], 2);
    CHECK_EQ_UINT(offsets[2], 3);
    CHECK(is_str(&values[0], "Rex") && is_str(&values[1], "Fido") && is_str(&values[2], "Max"));
    /* Objects are written whole: with room for 2 values only Ann fits; with room for 1, none,
     * and count says how many Ann needs. */
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 0, 3, values, 2, offsets, &objects, &count, NULL));
    CHECK_EQ_UINT(objects, 1);
    CHECK_EQ_UINT(count, 2);
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 0, 3, values, 1, offsets, &objects, &count, NULL));
    CHECK_EQ_UINT(objects, 0);
    CHECK_EQ_UINT(count, 2);
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "dogs.@count", 1, 3, values, 8, offsets, &objects, &count, &single));
    CHECK(single && objects == 1 && count == 1 && values[0].type == DB_VALUE_INT && values[0].integer == 1);
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "tags", 0, 3, values, 8, offsets, &objects, &count, &single));
    CHECK(!single && objects == 2 && offsets[1] == 1 && offsets[2] == 1 && is_str(&values[0], "x"));
    CHECK_OK(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 2, 3, values, 8, offsets, &objects, &count, NULL));
    CHECK_EQ_UINT(objects, 0); /* start at the end */
    CHECK_STATUS(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 3, 3, values, 8, offsets, &objects, &count, NULL),
                 DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_results_get_value_lists_by_key_path(by_age, "dogs.nope", 0, 3, values, 8, offsets, &objects, &count, NULL),
                 DB_ERR_QUERY);
    CHECK_STATUS(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 0, 3, NULL, 8, offsets, &objects, &count, NULL),
                 DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_value_lists_by_key_path(by_age, "dogs.name", 0, 3, values, 8, NULL, &objects, &count, NULL),
                 DB_ERR_INVALID_ARGUMENT);
    db_results_release(by_age);
    db_results_release(people);
    close_world(&w);
}

TEST(sort_and_distinct_by_key_paths) {
    world_t w = open_world();
    db_results_t *dogs = REQUIRE_PTR(db_results_from_class(w.realm, w.dog));
    db_property_key_t name = fx_prop_key(w.realm, "Dog", "name");
    char text[64];
    db_sort_path_t keys[2] = {{.key_path = "owner.age", .ascending = false}, {.key_path = "name", .ascending = true}};
    db_results_t *sorted = REQUIRE_PTR(db_results_sort_by_key_paths(dogs, keys, 2));
    names_of(sorted, name, text, sizeof text);
    CHECK_EQ_STR(text, "Max Fido Rex");
    db_results_release(sorted);
    const char *paths[] = {"owner.name"};
    db_results_t *distinct = REQUIRE_PTR(db_results_distinct_by_key_paths(dogs, paths, 1));
    names_of(distinct, name, text, sizeof text);
    CHECK_EQ_STR(text, "Rex Max");
    db_results_release(distinct);
    db_results_t *queried = REQUIRE_PTR(db_results_filter(dogs, "TRUEPREDICATE SORT(owner.name DESC, age ASC)", NULL, 0));
    names_of(queried, name, text, sizeof text);
    CHECK_EQ_STR(text, "Max Rex Fido");
    db_results_release(queried);

    /* Errors: to-many hops, unknown names, non-scalar leaves, NULL arguments. */
    db_sort_path_t bad = {.key_path = "owners.name", .ascending = true};
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, &bad, 1), DB_ERR_QUERY);
    bad.key_path = "owner.nope";
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, &bad, 1), DB_ERR_QUERY);
    bad.key_path = "owner";
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, &bad, 1), DB_ERR_QUERY);
    bad.key_path = "owner.";
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, &bad, 1), DB_ERR_QUERY);
    bad.key_path = NULL;
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, &bad, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_sort_by_key_paths(dogs, NULL, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_sort_by_key_paths(NULL, keys, 1), DB_ERR_INVALID_ARGUMENT);
    const char *bad_paths[] = {"owner.dogs"};
    CHECK_NULL_ERR(db_results_distinct_by_key_paths(dogs, bad_paths, 1), DB_ERR_QUERY);
    CHECK_NULL_ERR(db_results_distinct_by_key_paths(dogs, NULL, 1), DB_ERR_INVALID_ARGUMENT);
    db_results_release(dogs);
    close_world(&w);
}

TEST(graph_query_errors_carry_offsets) {
    world_t w = open_world();
    db_results_t *people = REQUIRE_PTR(db_results_from_class(w.realm, w.person));
    struct { const char *query; int64_t offset; const char *fragment; } cases[] = {
        {"dogs.nope > 1", 5, "no property named 'nope'"},
        {"ANY age > 1", 4, "applies to a key path through a collection"},
        {"dogs.@avg.name > 1", 10, "@avg needs numbers"},
        {"SUBQUERY(dogs, $d, age > 1).@count > 0", 19, "start with the variable $d"},
        {"extra.@type == 'colour'", 15, "type name"},
        {"tags[FIRST] == 'x'", 0, "apply to lists"},
        {"dogs.age * dogs.age > 1", 11, "arithmetic between two collections"},
        {"name" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1" " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
         " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
         " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
         " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
         " > 0", 405, "the arithmetic is too long"},
        {"dogs GEOWITHIN geoCircle([0, 0], 1)", 0, "class 'Dog' must have a string property 'type' and a list of doubles 'coordinates'"},
        {"name GEOWITHIN geoCircle([0, 0], 1)", 0, "needs a link to objects holding a GeoJSON point"},
        {"dogs GEOWITHIN geoCircle([0 0], 1)", 28, "a point is [longitude, latitude]"},
    };
    for (size_t i = 0; i < FX_COUNT(cases); i++) {
        CHECK(db_results_filter(people, cases[i].query, NULL, 0) == NULL);
        harness_error_t e = harness_last_error();
        CHECK_EQ_INT(e.code, DB_ERR_QUERY);
        CHECK_EQ_INT(e.offset, cases[i].offset);
        CHECK_CONTAINS(e.message, cases[i].fragment);
    }
    db_results_release(people);
    close_world(&w);
}

TEST(queries_follow_deletes_and_writes) {
    world_t w = open_world();
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age > 10", NULL, 0), 1);
    REQUIRE_OK(db_realm_begin_write(w.realm));
    db_value_t old = v_int(20);
    REQUIRE_OK(db_object_set_value(w.max, fx_prop_key(w.realm, "Dog", "age"), &old));
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age > 10", NULL, 0), 2);
    REQUIRE_OK(db_object_delete(w.fido));
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.age > 10", NULL, 0), 1);
    CHECK_EQ_INT(query_count(&w, w.person, "dogs.@count == 1", NULL, 0), 2);
    REQUIRE_OK(db_realm_commit(w.realm));
    CHECK_EQ_INT(query_count(&w, w.dog, "owner.name == 'Ann'", NULL, 0), 1);
    close_world(&w);
}

HARNESS_MAIN("graph_queries",
    HARNESS_ENTRY(key_paths_quantifiers_and_collection_operators),
    HARNESS_ENTRY(arithmetic_on_collections_and_lists),
    HARNESS_ENTRY(link_arguments),
    HARNESS_ENTRY(values_by_key_path),
    HARNESS_ENTRY(value_lists_by_key_path),
    HARNESS_ENTRY(sort_and_distinct_by_key_paths),
    HARNESS_ENTRY(graph_query_errors_carry_offsets),
    HARNESS_ENTRY(queries_follow_deletes_and_writes))
