/*
 * Links and collections through the C API: to-one links as DB_VALUE_LINK values, lists
 * (db_list_*), sets (db_set_*), dictionaries (db_dictionary_*), embedded objects, backlinks and
 * mixed values; delete propagation; collections as results; and the error paths (wrong element
 * type, out-of-range index, bad dictionary key, link to a deleted object or one of another class,
 * embedded object linked twice, write outside a write transaction, use after close, NULL handles);
 * savepoints that make a change of several calls atomic.
 */
#include "fixtures.h"

static const db_property_info_t owner_props[] = {
    FX_OWNER_NAME_DOGS_BEST,
    FX_COLLECTION("scores", DB_PROPERTY_TYPE_INT, DB_COLLECTION_LIST, 0),
    FX_COLLECTION("tags", DB_PROPERTY_TYPE_STRING, DB_COLLECTION_SET, 0),
    FX_COLLECTION("meta", DB_PROPERTY_TYPE_INT, DB_COLLECTION_DICTIONARY, DB_PROPERTY_FLAG_NULLABLE),
    FX_LINK("home", "Address"),
    FX_PROP("any", DB_PROPERTY_TYPE_MIXED, 0),
    FX_COLLECTION("anys", DB_PROPERTY_TYPE_MIXED, DB_COLLECTION_SET, 0),
};
static const db_property_info_t dog_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_BACKLINKS("owners", "Owner", "dogs"),
};
static const db_property_info_t address_props[] = {FX_PROP("street", DB_PROPERTY_TYPE_STRING, 0)};

/* The realm and its keys; each class's property keys in the order of its props table. */
typedef struct graph {
    db_realm_t *realm;
    db_class_key_t owner, dog, address;
    union {
        struct { db_property_key_t owner_name, dogs, best, scores, tags, meta, home, any, anys; };
        db_property_key_t owner_keys[FX_COUNT(owner_props)];
    };
    union {
        struct { db_property_key_t dog_name, dog_age, owners; };
        db_property_key_t dog_keys[FX_COUNT(dog_props)];
    };
    db_property_key_t street;
    db_object_t *made[8]; /* what make_owner and make_dog made: close_graph releases them */
    size_t num_made;
} graph_t;

static db_schema_t *graph_schema(void) {
    db_class_info_t c[3];
    c[0] = fx_class("Owner", owner_props, FX_COUNT(owner_props));
    c[1] = fx_class("Dog", dog_props, FX_COUNT(dog_props));
    c[2] = fx_class("Address", address_props, FX_COUNT(address_props));
    c[2].flags = DB_CLASS_FLAG_EMBEDDED;
    return db_schema_new(c, 3);
}

static graph_t open_graph(void) {
    graph_t g;
    db_schema_t *schema = REQUIRE_PTR(graph_schema());
    g.realm = fx_open_with(harness_tmpfile("graph.realm"), schema, 1);
    db_schema_release(schema);
    g.owner = fx_class_key(g.realm, "Owner");
    g.dog = fx_class_key(g.realm, "Dog");
    g.address = fx_class_key(g.realm, "Address");
    for (size_t i = 0; i < FX_COUNT(owner_props); i++) g.owner_keys[i] = fx_prop_key(g.realm, "Owner", owner_props[i].name);
    for (size_t i = 0; i < FX_COUNT(dog_props); i++) g.dog_keys[i] = fx_prop_key(g.realm, "Dog", dog_props[i].name);
    g.street = fx_prop_key(g.realm, "Address", "street");
    g.num_made = 0;
    return g;
}

/* Releases the objects the graph made, then the realm. */
static void close_graph(graph_t *g) {
    while (g->num_made > 0) db_object_release(g->made[--g->num_made]);
    db_realm_release(g->realm);
}

/* Commits the graph's write, then closes it. */
static void commit_and_close_graph(graph_t *g) {
    REQUIRE_OK(db_realm_commit(g->realm));
    close_graph(g);
}

static db_object_t *remember(graph_t *g, db_object_t *made) {
    REQUIRE(g->num_made < FX_COUNT(g->made));
    g->made[g->num_made++] = made;
    return made;
}

static db_object_t *make_owner(graph_t *g, const char *name) {
    db_value_t v = v_str(name);
    db_property_key_t key = fx_prop_key(g->realm, "Owner", "name");
    return remember(g, REQUIRE_PTR(db_object_create(g->realm, g->owner, &key, &v, 1, DB_UPSERT_NONE)));
}

static db_object_t *make_dog(graph_t *g, const char *name, int64_t age) {
    db_value_t v[2];
    db_property_key_t keys[2];
    keys[0] = g->dog_name; keys[1] = g->dog_age;
    v[0] = v_str(name); v[1] = v_int(age);
    return remember(g, REQUIRE_PTR(db_object_create(g->realm, g->dog, keys, v, 2, DB_UPSERT_NONE)));
}

/* Begins a write on the graph and creates the Owner `name` in it. */
static db_object_t *begin_with_owner(graph_t *g, const char *name) {
    REQUIRE_OK(db_realm_begin_write(g->realm));
    return make_owner(g, name);
}

/* Sets `key` of `o` to `v`, then reads it back. */
static db_value_t set_then_get(db_object_t *o, db_property_key_t key, db_value_t v) {
    CHECK_OK(db_object_set_value(o, key, &v));
    REQUIRE_OK(db_object_get_value(o, key, &v));
    return v;
}

/* Deleting `target` leaves `key` of `o` (a link to it) null. */
static void check_delete_clears_link(db_object_t *o, db_property_key_t key, db_object_t *target) {
    db_value_t v;
    CHECK_OK(db_object_delete(target));
    REQUIRE_OK(db_object_get_value(o, key, &v));
    CHECK_EQ_INT(v.type, DB_VALUE_NULL);
}

static int64_t list_int(const db_list_t *list, size_t index) {
    db_value_t v;
    REQUIRE_OK(db_list_get(list, index, &v));
    REQUIRE(v.type == DB_VALUE_INT);
    return v.integer;
}

TEST(schema_describes_links_and_collections) {
    graph_t g = open_graph();
    db_schema_t *schema = REQUIRE_PTR(db_realm_get_schema(g.realm));
    db_class_info_t info;
    size_t index;
    REQUIRE_OK(db_schema_find_class(schema, "Owner", &index));
    REQUIRE_OK(db_schema_get_class(schema, index, &info));
    CHECK_EQ_INT(info.properties[1].type, DB_PROPERTY_TYPE_OBJECT);
    CHECK_EQ_INT(info.properties[1].collection_type, DB_COLLECTION_LIST);
    CHECK_EQ_STR(info.properties[1].link_target, "Dog");
    CHECK_EQ_INT(info.properties[7].type, DB_PROPERTY_TYPE_MIXED);
    CHECK(info.properties[7].flags & DB_PROPERTY_FLAG_NULLABLE);
    REQUIRE_OK(db_schema_find_class(schema, "Dog", &index));
    REQUIRE_OK(db_schema_get_class(schema, index, &info));
    CHECK_EQ_INT(info.properties[2].type, DB_PROPERTY_TYPE_LINKING_OBJECTS);
    CHECK_EQ_STR(info.properties[2].link_origin_property, "dogs");
    REQUIRE_OK(db_schema_find_class(schema, "Address", &index));
    REQUIRE_OK(db_schema_get_class(schema, index, &info));
    CHECK_EQ_INT(info.flags, DB_CLASS_FLAG_EMBEDDED);
    db_schema_release(schema);
    db_realm_release(g.realm);
}

TEST(invalid_relationship_schemas) {
    db_property_info_t bad[1] = {{.name = "d", .type = DB_PROPERTY_TYPE_OBJECT, .key = -1, .link_target = "Nowhere", .flags = DB_PROPERTY_FLAG_NULLABLE}};
    db_class_info_t c = fx_class("P", bad, 1);
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_SCHEMA_INVALID);
    bad[0].link_target = "P";
    bad[0].flags = 0; /* a to-one link must be nullable */
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_SCHEMA_INVALID);
    bad[0].flags = DB_PROPERTY_FLAG_NULLABLE;
    bad[0].collection_type = (db_collection_type_e)9;
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_SCHEMA_INVALID);
    bad[0].collection_type = DB_COLLECTION_NONE;
    c.flags = 8;
    CHECK_NULL_ERR(db_schema_new(&c, 1), DB_ERR_SCHEMA_INVALID);
}

TEST(to_one_link_and_delete_propagation) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_object_t *rex, *cat;
    db_value_t v, link;
    rex = make_dog(&g, "Rex", 3);
    link = v_link(rex);
    v = set_then_get(ann, g.best, link);
    CHECK_EQ_INT(v.type, DB_VALUE_LINK);
    CHECK_EQ_UINT(v.link.class_key, g.dog);
    CHECK_EQ_INT(v.link.object_key, link.link.object_key);
    cat = make_owner(&g, "Cat");
    v = v_link(cat); /* an Owner where a Dog is expected */
    CHECK_STATUS(db_object_set_value(ann, g.best, &v), DB_ERR_WRONG_TYPE);
    v = link;
    v.link.object_key = 4242; /* no such dog */
    CHECK_STATUS(db_object_set_value(ann, g.best, &v), DB_ERR_INVALIDATED);
    v = v_int(0);
    CHECK_STATUS(db_object_set_value(ann, g.best, &v), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_object_get_value(ann, g.dogs, &v), DB_ERR_WRONG_TYPE); /* a list: use db_object_get_list */
    check_delete_clears_link(ann, g.best, rex);
    commit_and_close_graph(&g);
}

TEST(list_of_scalars) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t v, values[3], out[8];
    size_t size, got, index;
    bool found;
    db_list_t *scores = REQUIRE_PTR(db_object_get_list(ann, g.scores));
    values[0] = v_int(5); values[1] = v_int(1); values[2] = v_int(3);
    CHECK_OK(db_list_assign(scores, values, 3));
    v = v_int(9);
    CHECK_OK(db_list_insert(scores, 0, &v));          /* 9 5 1 3 */
    CHECK_OK(db_list_move(scores, 0, 3));             /* 5 1 3 9 */
    CHECK_OK(db_list_swap(scores, 0, 1));             /* 1 5 3 9 */
    v = v_int(7);
    CHECK_OK(db_list_set(scores, 2, &v));             /* 1 5 7 9 */
    CHECK_OK(db_list_erase(scores, 0));               /* 5 7 9 */
    REQUIRE_OK(db_list_size(scores, &size));
    CHECK_EQ_UINT(size, 3);
    CHECK_EQ_INT(list_int(scores, 0), 5);
    CHECK_EQ_INT(list_int(scores, 2), 9);
    REQUIRE_OK(db_list_get_values(scores, 1, 8, out, &got));
    CHECK_EQ_UINT(got, 2);
    CHECK_EQ_INT(out[0].integer, 7);
    v = v_int(9);
    REQUIRE_OK(db_list_find(scores, &v, &index, &found));
    CHECK(found);
    CHECK_EQ_UINT(index, 2);
    v = v_int(100);
    REQUIRE_OK(db_list_find(scores, &v, &index, &found));
    CHECK(!found);
    REQUIRE_OK(db_list_aggregate(scores, DB_AGGREGATE_SUM, &v, &found));
    CHECK(found);
    CHECK_EQ_INT(v.integer, 21);
    REQUIRE_OK(db_list_aggregate(scores, DB_AGGREGATE_MAX, &v, &found));
    CHECK_EQ_INT(v.integer, 9);
    /* errors */
    CHECK_STATUS(db_list_get(scores, 3, &v), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_list_insert(scores, 5, &v), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_list_erase(scores, 3), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_list_move(scores, 0, 3), DB_ERR_OUT_OF_RANGE);
    v = v_str("x");
    CHECK_STATUS(db_list_insert(scores, 0, &v), DB_ERR_WRONG_TYPE);
    v = v_null();
    CHECK_STATUS(db_list_insert(scores, 0, &v), DB_ERR_NOT_NULLABLE);
    CHECK_STATUS(db_list_get_values(scores, 4, 1, out, &got), DB_ERR_OUT_OF_RANGE);
    CHECK_NULL_ERR(db_list_to_results(scores), DB_ERR_WRONG_TYPE);
    CHECK_NULL_ERR(db_object_get_set(ann, g.scores), DB_ERR_WRONG_TYPE);
    CHECK_NULL_ERR(db_object_get_list(ann, 999), DB_ERR_NOT_FOUND);
    REQUIRE_OK(db_realm_commit(g.realm));
    v = v_int(1);
    CHECK_STATUS(db_list_insert(scores, 0, &v), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_STATUS(db_list_clear(scores), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_list_size(scores, &size));
    CHECK_EQ_UINT(size, 3);
    CHECK(db_list_is_valid(scores));
    db_realm_close(g.realm);
    CHECK(!db_list_is_valid(scores));
    CHECK_STATUS(db_list_size(scores, &size), DB_ERR_CLOSED_REALM);
    db_list_release(scores);
    close_graph(&g);
}

/* Queries over the values of a list or set: each value is `self`. */
TEST(queries_over_values) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t values[5], bound = v_int(4), tag;
    db_query_arg_t arg;
    size_t positions[8], n = 99;
    db_list_t *scores = REQUIRE_PTR(db_object_get_list(ann, g.scores));
    db_set_t *tags = REQUIRE_PTR(db_object_get_set(ann, g.tags));
    db_list_t *dogs = REQUIRE_PTR(db_object_get_list(ann, g.dogs));
    values[0] = v_int(5); values[1] = v_int(1); values[2] = v_int(9); values[3] = v_int(4); values[4] = v_int(7);
    REQUIRE_OK(db_list_assign(scores, values, 5));
    arg.values = &bound; arg.num_values = 1; arg.is_list = false;
    CHECK_OK(db_list_positions_matching(scores, "self > $0", &arg, 1, positions, 8, &n));
    CHECK_EQ_UINT(n, 3);
    CHECK_EQ_UINT(positions[0], 0); CHECK_EQ_UINT(positions[1], 2); CHECK_EQ_UINT(positions[2], 4);
    /* capacity: the first ones, and how many in all */
    positions[1] = 77;
    CHECK_OK(db_list_positions_matching(scores, "self BETWEEN {1, 7} AND self != 4", NULL, 0, positions, 1, &n));
    CHECK_EQ_UINT(n, 3);
    CHECK_EQ_UINT(positions[0], 0);
    CHECK_EQ_UINT(positions[1], 77);
    CHECK_OK(db_list_positions_matching(scores, "self IN {9, 100}", NULL, 0, NULL, 0, &n));
    CHECK_EQ_UINT(n, 1);
    arg.values = values; arg.num_values = 2; arg.is_list = true; /* {5, 1} */
    CHECK_OK(db_list_positions_matching(scores, "self IN $0", &arg, 1, positions, 8, &n));
    CHECK_EQ_UINT(n, 2);
    tag = v_str("Swift"); REQUIRE_OK(db_set_insert(tags, &tag, NULL));
    tag = v_str("c"); REQUIRE_OK(db_set_insert(tags, &tag, NULL));
    tag = v_str("sql"); REQUIRE_OK(db_set_insert(tags, &tag, NULL));
    CHECK_OK(db_set_positions_matching(tags, "self BEGINSWITH[c] 's'", NULL, 0, positions, 8, &n));
    CHECK_EQ_UINT(n, 2);
    REQUIRE_OK(db_set_get(tags, positions[0], &tag));
    CHECK_EQ_INT(tag.type, DB_VALUE_STRING);
    CHECK_OK(db_set_positions_matching(tags, "self.@size == 1", NULL, 0, positions, 8, &n));
    CHECK_EQ_UINT(n, 1);
    /* refused: a query that does not fit values, a list of objects, bad arguments */
    CHECK_STATUS(db_list_positions_matching(scores, "age > 3", NULL, 0, positions, 8, &n), DB_ERR_QUERY);
    CHECK_STATUS(db_list_positions_matching(scores, "self BEGINSWITH 'a'", NULL, 0, positions, 8, &n), DB_ERR_QUERY);
    CHECK_STATUS(db_list_positions_matching(scores, "self > $0", NULL, 0, positions, 8, &n), DB_ERR_QUERY);
    CHECK_STATUS(db_list_positions_matching(scores, "self > 1 SORT(self ASC)", NULL, 0, positions, 8, &n), DB_ERR_QUERY);
    CHECK_STATUS(db_list_positions_matching(dogs, "self == nil", NULL, 0, positions, 8, &n), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_list_positions_matching(scores, NULL, NULL, 0, positions, 8, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_list_positions_matching(scores, "self > 1", NULL, 0, NULL, 8, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_list_positions_matching(scores, "self > 1", NULL, 0, positions, 8, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_list_positions_matching(scores, "self > 1", NULL, SIZE_MAX, positions, 8, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_list_positions_matching(NULL, "self > 1", NULL, 0, positions, 8, &n), DB_ERR_INVALID_ARGUMENT);
    db_list_release(dogs);
    db_set_release(tags);
    db_list_release(scores);
    commit_and_close_graph(&g);
}

TEST(list_of_objects_results_and_backlinks) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_object_t *a, *b;
    db_list_t *dogs;
    db_results_t *results, *owners;
    db_value_t v;
    size_t n;
    bool found;
    a = make_dog(&g, "A", 4);
    b = make_dog(&g, "B", 10);
    dogs = REQUIRE_PTR(db_object_get_list(ann, g.dogs));
    v = v_link(a); CHECK_OK(db_list_insert(dogs, 0, &v));
    v = v_link(b); CHECK_OK(db_list_insert(dogs, 1, &v));
    v = v_link(a); CHECK_OK(db_list_insert(dogs, 2, &v));
    REQUIRE_OK(db_realm_commit(g.realm));

    results = REQUIRE_PTR(db_list_to_results(dogs));
    CHECK_EQ_UINT(fx_results_count(results), 3);
    REQUIRE_OK(db_results_aggregate(results, g.dog_age, DB_AGGREGATE_SUM, &v, &found));
    CHECK_EQ_INT(v.integer, 18);
    owners = REQUIRE_PTR(db_object_get_linking_objects(a, g.owners));
    CHECK_EQ_UINT(fx_results_count(owners), 1);
    db_results_release(owners);
    owners = REQUIRE_PTR(db_object_get_backlinks(b, g.owner, g.dogs));
    CHECK_EQ_UINT(fx_results_count(owners), 1);
    CHECK_NULL_ERR(db_object_get_backlinks(b, g.owner, fx_prop_key(g.realm, "Owner", "name")), DB_ERR_WRONG_TYPE);
    CHECK_NULL_ERR(db_object_get_linking_objects(b, g.dog_age), DB_ERR_WRONG_TYPE);

    REQUIRE_OK(db_realm_begin_write(g.realm));
    CHECK_OK(db_object_delete(a)); /* both occurrences leave the list */
    REQUIRE_OK(db_realm_commit(g.realm));
    REQUIRE_OK(db_list_size(dogs, &n));
    CHECK_EQ_UINT(n, 1);
    CHECK_EQ_UINT(fx_results_count(results), 1); /* live */
    REQUIRE_OK(db_realm_begin_write(g.realm));
    CHECK_OK(db_object_delete(ann));
    REQUIRE_OK(db_realm_commit(g.realm));
    CHECK_EQ_UINT(fx_results_count(owners), 0);
    CHECK(!db_list_is_valid(dogs));
    CHECK_STATUS(db_list_size(dogs, &n), DB_ERR_INVALIDATED);
    db_results_release(owners);
    db_results_release(results);
    db_list_release(dogs);
    close_graph(&g);
}

TEST(sets) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t v, values[3];
    size_t n;
    bool flag;
    db_set_t *tags = REQUIRE_PTR(db_object_get_set(ann, g.tags));
    v = v_str("b");
    CHECK_OK(db_set_insert(tags, &v, &flag));
    CHECK(flag);
    CHECK_OK(db_set_insert(tags, &v, &flag));
    CHECK(!flag);
    values[0] = v_str("a"); values[1] = v_str("c"); values[2] = v_str("a");
    CHECK_OK(db_set_union(tags, values, 3));
    REQUIRE_OK(db_set_size(tags, &n));
    CHECK_EQ_UINT(n, 3);
    REQUIRE_OK(db_set_get(tags, 0, &v));
    CHECK_EQ_INT(v.type, DB_VALUE_STRING);
    CHECK_EQ_MEM(v.string.data, "a", 1);
    CHECK_OK(db_set_intersect(tags, values, 2)); /* {a, c} */
    CHECK_OK(db_set_subtract(tags, values, 1));  /* {c} */
    v = v_str("c");
    REQUIRE_OK(db_set_contains(tags, &v, &flag));
    CHECK(flag);
    CHECK_OK(db_set_erase(tags, &v, &flag));
    CHECK(flag);
    CHECK_OK(db_set_erase(tags, &v, &flag));
    CHECK(!flag);
    v = v_int(1);
    CHECK_STATUS(db_set_insert(tags, &v, NULL), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_set_get(tags, 0, &v), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_set_aggregate(tags, DB_AGGREGATE_SUM, &v, &flag), DB_ERR_WRONG_TYPE);
    db_set_release(tags);
    commit_and_close_graph(&g);
}

TEST(dictionaries) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t v, keys[4], values[4];
    size_t n;
    bool flag;
    db_dictionary_t *meta = REQUIRE_PTR(db_object_get_dictionary(ann, g.meta));
    v = v_int(2); CHECK_OK(db_dictionary_insert(meta, "b", &v));
    v = v_int(1); CHECK_OK(db_dictionary_insert(meta, "a", &v));
    v = v_null(); CHECK_OK(db_dictionary_insert(meta, "z", &v));
    REQUIRE_OK(db_dictionary_get_entries(meta, 0, 4, keys, values, &n));
    CHECK_EQ_UINT(n, 3);
    CHECK_EQ_MEM(keys[0].string.data, "a", 1);
    CHECK_EQ_INT(values[1].integer, 2);
    CHECK_EQ_INT(values[2].type, DB_VALUE_NULL);
    REQUIRE_OK(db_dictionary_find(meta, "z", &v, &flag));
    CHECK(flag); /* present, holding null */
    REQUIRE_OK(db_dictionary_find(meta, "nope", &v, &flag));
    CHECK(!flag);
    REQUIRE_OK(db_dictionary_aggregate(meta, DB_AGGREGATE_AVERAGE, &v, &flag));
    CHECK(v.dnum == 1.5);
    CHECK_OK(db_dictionary_erase(meta, "a", &flag));
    CHECK(flag);
    REQUIRE_OK(db_dictionary_size(meta, &n));
    CHECK_EQ_UINT(n, 2);
    v = v_int(1);
    CHECK_STATUS(db_dictionary_insert(meta, "a.b", &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_dictionary_insert(meta, "$a", &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_dictionary_insert(meta, "", &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_dictionary_insert(meta, NULL, &v), DB_ERR_INVALID_ARGUMENT);
    v = v_str("x");
    CHECK_STATUS(db_dictionary_insert(meta, "k", &v), DB_ERR_WRONG_TYPE);
    CHECK_OK(db_dictionary_clear(meta));
    REQUIRE_OK(db_dictionary_size(meta, &n));
    CHECK_EQ_UINT(n, 0);
    db_dictionary_release(meta);
    commit_and_close_graph(&g);
}

TEST(embedded_objects) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_object_t *bob, *home, *other;
    db_value_t v;
    bob = make_owner(&g, "Bob");
    CHECK_NULL_ERR(db_object_create(g.realm, g.address, NULL, NULL, 0, DB_UPSERT_NONE), DB_ERR_LOGIC);
    home = REQUIRE_PTR(db_object_create_embedded(ann, g.home));
    v = fx_get(home, "street"); /* required properties start at their default */
    CHECK_EQ_INT(v.type, DB_VALUE_STRING);
    CHECK_EQ_UINT(v.string.size, 0);
    v = v_str("Main St");
    CHECK_OK(db_object_set_value(home, g.street, &v));
    v = v_link(home);
    CHECK_STATUS(db_object_set_value(bob, g.home, &v), DB_ERR_LOGIC); /* already has a parent */
    CHECK_STATUS(db_object_set_value(ann, g.any, &v), DB_ERR_LOGIC);  /* mixed cannot hold one */
    CHECK_NULL_ERR(db_object_create_embedded(ann, g.best), DB_ERR_LOGIC);
    other = REQUIRE_PTR(db_object_create_embedded(ann, g.home)); /* replaces and deletes the first */
    CHECK(!db_object_is_valid(home));
    CHECK_OK(db_object_delete(ann));
    CHECK(!db_object_is_valid(other));
    CHECK_EQ_UINT(fx_count(g.realm, "Address"), 0);
    db_object_release(other);
    db_object_release(home);
    commit_and_close_graph(&g);
}

TEST(mixed_values) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t v;
    db_object_t *rex = make_dog(&g, "Rex", 1);
    v = set_then_get(ann, g.any, v_double(2.5));
    CHECK_EQ_INT(v.type, DB_VALUE_DOUBLE);
    v = set_then_get(ann, g.any, v_str("hello"));
    CHECK_EQ_INT(v.type, DB_VALUE_STRING);
    CHECK_EQ_MEM(v.string.data, "hello", 5);
    v = v_link(rex);
    CHECK_OK(db_object_set_value(ann, g.any, &v));
    check_delete_clears_link(ann, g.any, rex);
    commit_and_close_graph(&g);
}

/* A mixed set holds numbers of every type, strings and decimals in one order: lookups find them. */
TEST(mixed_set_orders_decimals_among_numbers) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_value_t v, values[6];
    size_t n, i;
    bool flag;
    db_set_t *anys = REQUIRE_PTR(db_object_get_set(ann, g.anys));
    values[0] = v_int(1);
    values[1] = v_str("x");
    values[2] = v_dec(0, 0x3040000000000000ULL);     /* 0 */
    values[3] = v_dec(5, 0xB040000000000000ULL);     /* -5 */
    values[4] = v_double(0.5);
    values[5] = v_dec(15, 0x303E000000000000ULL);    /* 1.5 */
    for (i = 0; i < 6; i++) CHECK_OK(db_set_insert(anys, &values[i], &flag));
    for (i = 0; i < 6; i++) {
        REQUIRE_OK(db_set_contains(anys, &values[i], &flag));
        CHECK(flag);
        CHECK_OK(db_set_insert(anys, &values[i], &flag));
        CHECK(!flag); /* already there */
    }
    REQUIRE_OK(db_set_size(anys, &n));
    CHECK_EQ_UINT(n, 6);
    /* -5, 0, 0.5, 1, 1.5, "x": numbers by value whatever their type, then strings */
    REQUIRE_OK(db_set_get(anys, 0, &v));
    CHECK_EQ_INT(v.type, DB_VALUE_DECIMAL128);
    REQUIRE_OK(db_set_get(anys, 3, &v));
    CHECK_EQ_INT(v.type, DB_VALUE_INT);
    REQUIRE_OK(db_set_get(anys, 5, &v));
    CHECK_EQ_INT(v.type, DB_VALUE_STRING);
    v = v_double(1.0); /* equal to 1 but a double: another element */
    CHECK_OK(db_set_insert(anys, &v, &flag));
    CHECK(flag);
    db_set_release(anys);
    commit_and_close_graph(&g);
}

/* An object and its collections made in several calls: a savepoint rolls back all of it. */
TEST(savepoint_rolls_back_a_failed_composite_create) {
    graph_t g = open_graph();
    db_object_t *rex, *bob;
    db_list_t *dogs, *scores;
    db_results_t *owners;
    db_value_t v;
    bool found;
    REQUIRE_OK(db_realm_begin_write(g.realm));
    rex = make_dog(&g, "Rex", 3);
    REQUIRE_OK(db_realm_begin_savepoint(g.realm));
    bob = make_owner(&g, "Bob");
    dogs = REQUIRE_PTR(db_object_get_list(bob, g.dogs));
    scores = REQUIRE_PTR(db_object_get_list(bob, g.scores));
    v = v_link(rex);
    CHECK_OK(db_list_insert(dogs, 0, &v));
    CHECK_OK(db_object_set_value(bob, g.best, &v));
    v = v_int(1);
    CHECK_OK(db_list_insert(scores, 0, &v));
    v = v_str("not a score");
    CHECK_STATUS(db_list_insert(scores, 1, &v), DB_ERR_WRONG_TYPE); /* the failure */
    CHECK_OK(db_realm_rollback_savepoint(g.realm));
    CHECK(!db_object_is_valid(bob));
    CHECK_EQ_UINT(fx_count(g.realm, "Owner"), 0);
    v = v_str("Bob");
    CHECK(db_object_find_with_primary_key(g.realm, g.owner, &v, &found) == NULL);
    CHECK(!found);
    owners = REQUIRE_PTR(db_object_get_linking_objects(rex, g.owners));
    CHECK_EQ_UINT(fx_results_count(owners), 0);
    make_owner(&g, "Bob"); /* the write goes on */
    CHECK_STATUS(db_realm_rollback_savepoint(g.realm), DB_ERR_WRONG_TRANSACTION_STATE); /* none open */
    REQUIRE_OK(db_realm_commit(g.realm));
    CHECK_STATUS(db_realm_begin_savepoint(g.realm), DB_ERR_WRONG_TRANSACTION_STATE); /* no write */
    CHECK_EQ_UINT(fx_count(g.realm, "Owner"), 1);
    CHECK_OK(db_realm_check(g.realm, NULL, NULL, NULL));
    db_results_release(owners);
    db_list_release(scores);
    db_list_release(dogs);
    close_graph(&g);
}

/* Replacing an embedded object deletes the old one; rolled back, the old one is back with its values. */
TEST(savepoint_keeps_the_old_embedded_object_of_a_failed_replacement) {
    graph_t g = open_graph();
    db_object_t *ann = begin_with_owner(&g, "Ann");
    db_object_t *home, *replacement;
    db_value_t v;
    home = REQUIRE_PTR(db_object_create_embedded(ann, g.home));
    v = v_str("Old St");
    REQUIRE_OK(db_object_set_value(home, g.street, &v));
    REQUIRE_OK(db_realm_commit(g.realm));
    REQUIRE_OK(db_realm_begin_write(g.realm));
    REQUIRE_OK(db_realm_begin_savepoint(g.realm));
    replacement = REQUIRE_PTR(db_object_create_embedded(ann, g.home));
    CHECK(!db_object_is_valid(home));
    v = v_int(5);
    CHECK_STATUS(db_object_set_value(replacement, g.street, &v), DB_ERR_WRONG_TYPE);
    CHECK_OK(db_realm_rollback_savepoint(g.realm));
    CHECK(db_object_is_valid(home));
    CHECK(!db_object_is_valid(replacement));
    v = fx_get(home, "street");
    CHECK_EQ_MEM(v.string.data, "Old St", 6);
    CHECK_EQ_UINT(fx_count(g.realm, "Address"), 1);
    REQUIRE_OK(db_realm_commit(g.realm));
    CHECK_OK(db_realm_check(g.realm, NULL, NULL, NULL));
    db_object_release(replacement);
    db_object_release(home);
    close_graph(&g);
}

TEST(null_handles) {
    size_t n;
    db_value_t v = v_int(1); /* initialised: clang -Wuninitialized-const-pointer (the ASan build) */
    bool flag;
    CHECK_STATUS(db_list_size(NULL, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_set_contains(NULL, &v, &flag), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_dictionary_size(NULL, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_get_list(NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK(!db_list_is_valid(NULL));
    db_list_release(NULL);
    db_set_release(NULL);
    db_dictionary_release(NULL);
}

HARNESS_MAIN("relationships",
    HARNESS_ENTRY(schema_describes_links_and_collections),
    HARNESS_ENTRY(invalid_relationship_schemas),
    HARNESS_ENTRY(to_one_link_and_delete_propagation),
    HARNESS_ENTRY(list_of_scalars),
    HARNESS_ENTRY(queries_over_values),
    HARNESS_ENTRY(list_of_objects_results_and_backlinks),
    HARNESS_ENTRY(sets),
    HARNESS_ENTRY(mixed_set_orders_decimals_among_numbers),
    HARNESS_ENTRY(savepoint_rolls_back_a_failed_composite_create),
    HARNESS_ENTRY(savepoint_keeps_the_old_embedded_object_of_a_failed_replacement),
    HARNESS_ENTRY(dictionaries),
    HARNESS_ENTRY(embedded_objects),
    HARNESS_ENTRY(mixed_values),
    HARNESS_ENTRY(null_handles))
