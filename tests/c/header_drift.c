/*
 * header_drift.c: include/db.h agrees with what Swift compiled.
 *
 * Includes the checked-in include/db.h and the CAPI-Swift.h that the Swift
 * compiler printed for Sources/CAPI (SwiftPM: .build/<config>/CAPI.build/
 * include/; CMake: <build>/include/). Both declare every db_* function, so a
 * parameter or return type that differs is a "conflicting types" error.
 * Compile-only, with the Swift toolchain's clang (CAPI-Swift.h uses clang
 * extensions). Outside Objective-C with modules, CAPI-Swift.h includes
 * <db_types.h> instead of `@import CDBTypes;`; db.h keeps db_types.h's include
 * guard, so the types are defined once.
 *
 * A function that exists on one side only is not an error here: that is
 * what `tools/generate_header.py --check` and `tools/check_exports.py` catch.
 */
#include "db.h"
#include "CAPI-Swift.h"

/* Use a few declarations so the compiler sees both sets together. */
typedef db_status_e (*find_class_fn)(const db_realm_t *, const char *, db_class_key_t *);
static const find_class_fn find_class_ptr = db_realm_find_class;

int header_drift_unused(void);
int header_drift_unused(void) {
    return find_class_ptr != 0;
}
