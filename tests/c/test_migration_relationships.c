/*
 * Migrations of realms that hold links and collections, through the C API: adding link, list,
 * set and dictionary properties is additive and keeps the data; removing them needs a migration,
 * in which the old objects' lists and links are read with the keys of db_migration_get_old_schema
 * and their data moved into new properties.
 */
#include "fixtures.h"

static const db_property_info_t v1_owner[] = {
    FX_OWNER_NAME_DOGS_BEST,
};
/* v2 adds collections and a link (additive). */
static const db_property_info_t v2_owner[] = {
    FX_OWNER_NAME_DOGS_BEST,
    FX_COLLECTION("tags", DB_PROPERTY_TYPE_STRING, DB_COLLECTION_SET, 0),
    FX_COLLECTION("meta", DB_PROPERTY_TYPE_INT, DB_COLLECTION_DICTIONARY, 0),
    FX_LINK("partner", "Owner"),
};
/* v3 removes the links and collections: their data moves into plain properties. */
static const db_property_info_t v3_owner[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("dog_count", DB_PROPERTY_TYPE_INT, 0),
    FX_PROP("best_name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
};
static const db_property_info_t dog_props[] = {FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0)};

static db_schema_t *schema_with(const db_property_info_t *owner, size_t n) {
    db_class_info_t c[2];
    c[0] = fx_class("Owner", owner, n);
    c[1] = fx_class("Dog", dog_props, FX_COUNT(dog_props));
    return db_schema_new(c, 2);
}

static db_realm_t *open_version(const char *path, const db_property_info_t *owner, size_t n, uint64_t version,
                                db_migration_func_t migrate) {
    db_schema_t *schema = REQUIRE_PTR(schema_with(owner, n));
    db_config_t *config = fx_config(path, schema, version);
    if (migrate) REQUIRE_OK(db_config_set_migration_function(config, migrate, NULL, NULL));
    db_realm_t *realm = db_realm_open(config);
    db_config_release(config);
    db_schema_release(schema);
    return realm;
}

/* Ann owns Rex and Fido; her best is Fido. */
static const char *make_v1(void) {
    const char *path = harness_tmpfile("relationships_migration.realm");
    db_realm_t *realm = REQUIRE_PTR(open_version(path, v1_owner, FX_COUNT(v1_owner), 1, NULL));
    db_class_key_t dog = fx_class_key(realm, "Dog"), owner = fx_class_key(realm, "Owner");
    db_property_key_t dog_name = fx_prop_key(realm, "Dog", "name"), owner_name = fx_prop_key(realm, "Owner", "name");
    REQUIRE_OK(db_realm_begin_write(realm));
    db_value_t v = v_str("Rex");
    db_object_t *rex = REQUIRE_PTR(db_object_create(realm, dog, &dog_name, &v, 1, DB_UPSERT_NONE));
    v = v_str("Fido");
    db_object_t *fido = REQUIRE_PTR(db_object_create(realm, dog, &dog_name, &v, 1, DB_UPSERT_NONE));
    v = v_str("Ann");
    db_object_t *ann = REQUIRE_PTR(db_object_create(realm, owner, &owner_name, &v, 1, DB_UPSERT_NONE));
    db_list_t *dogs = REQUIRE_PTR(db_object_get_list(ann, fx_prop_key(realm, "Owner", "dogs")));
    db_value_t links[2] = {v_link(rex), v_link(fido)};
    REQUIRE_OK(db_list_assign(dogs, links, 2));
    REQUIRE_OK(db_object_set_value(ann, fx_prop_key(realm, "Owner", "best"), &links[1]));
    REQUIRE_OK(db_realm_commit(realm));
    db_list_release(dogs);
    db_object_release(rex);
    db_object_release(fido);
    db_object_release(ann);
    db_realm_release(realm);
    return path;
}

TEST(adding_links_and_collections_keeps_the_data) {
    const char *path = make_v1();
    /* New properties need a higher schema version, as in Realm, but no migration function. */
    CHECK_NULL_ERR(open_version(path, v2_owner, FX_COUNT(v2_owner), 1, NULL), DB_ERR_MIGRATION_REQUIRED);
    db_realm_t *realm = REQUIRE_PTR(open_version(path, v2_owner, FX_COUNT(v2_owner), 2, NULL));
    db_results_t *owners = REQUIRE_PTR(db_results_from_class(realm, fx_class_key(realm, "Owner")));
    db_results_t *match = REQUIRE_PTR(db_results_filter(owners,
        "dogs.@count == 2 AND best.name == 'Fido' AND tags.@count == 0 AND meta.@count == 0 AND partner == nil", NULL, 0));
    CHECK_EQ_UINT(fx_results_count(match), 1);
    db_results_release(match);
    db_results_release(owners);
    db_realm_release(realm);
}

typedef struct migration_state {
    db_schema_t *old_schema;
    db_realm_t *realm;
} migration_state_t;

/* Reads each old Owner's list and link with the old schema's keys. */
static bool move_owner(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    migration_state_t *state = (migration_state_t *)userdata;
    db_schema_t *old_schema = state->old_schema;
    size_t index;
    db_class_info_t info;
    if (db_schema_find_class(old_schema, "Owner", &index) != DB_OK || db_schema_get_class(old_schema, index, &info) != DB_OK) return false;
    db_property_key_t dogs_key = -1, best_key = -1;
    for (size_t i = 0; i < info.num_properties; i++) {
        if (strcmp(info.properties[i].name, "dogs") == 0) dogs_key = info.properties[i].key;
        if (strcmp(info.properties[i].name, "best") == 0) best_key = info.properties[i].key;
    }
    if (dogs_key < 0 || best_key < 0) return false;
    db_list_t *dogs = db_object_get_list(old_object, dogs_key);
    size_t count = 0;
    if (!dogs || db_list_size(dogs, &count) != DB_OK) return false;
    db_list_release(dogs);
    db_value_t best;
    if (db_object_get_value(old_object, best_key, &best) != DB_OK || best.type != DB_VALUE_LINK) return false;
    db_value_t v = v_int((int64_t)count);
    if (db_object_set_value_by_name(new_object, "dog_count", &v) != DB_OK) return false;
    /* The dogs stay: the linked one is read through the migration's realm. */
    db_object_t *dog = db_object_get_by_key(state->realm, best.link.class_key, best.link.object_key);
    if (!dog) return false;
    bool ok = db_object_get_value_by_name(dog, "name", &v) == DB_OK &&
              db_object_set_value_by_name(new_object, "best_name", &v) == DB_OK;
    db_object_release(dog);
    return ok;
}

static bool migrate_to_v3(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata;
    (void)old_version;
    migration_state_t state = {db_migration_get_old_schema(migration), db_migration_get_realm(migration)};
    bool ok = state.old_schema && state.realm &&
              db_migration_enumerate_objects(migration, "Owner", move_owner, &state) == DB_OK;
    db_schema_release(state.old_schema);
    return ok;
}

TEST(removing_links_and_collections_needs_a_migration_that_reads_them) {
    const char *path = make_v1();
    CHECK_NULL_ERR(open_version(path, v3_owner, FX_COUNT(v3_owner), 1, NULL), DB_ERR_MIGRATION_REQUIRED);
    db_realm_t *realm = open_version(path, v3_owner, FX_COUNT(v3_owner), 2, migrate_to_v3);
    REQUIRE(realm != NULL);
    db_results_t *owners = REQUIRE_PTR(db_results_from_class(realm, fx_class_key(realm, "Owner")));
    db_results_t *match = REQUIRE_PTR(db_results_filter(owners, "dog_count == 2 AND best_name == 'Fido'", NULL, 0));
    CHECK_EQ_UINT(fx_results_count(match), 1);
    CHECK_EQ_UINT(fx_count(realm, "Dog"), 2);
    CHECK_NULL_ERR(db_results_filter(owners, "dogs.@count > 0", NULL, 0), DB_ERR_QUERY);
    db_results_release(match);
    db_results_release(owners);
    db_realm_release(realm);
}

HARNESS_MAIN("migration_relationships",
    HARNESS_ENTRY(adding_links_and_collections_keeps_the_data),
    HARNESS_ENTRY(removing_links_and_collections_needs_a_migration_that_reads_them))
