/* CDBTypes holds only declarations (include/db_types.h); SwiftPM needs one source file per C target. */
#include "db_types.h"
