/* Exposes Debian's liblmdb-dev (<lmdb.h>) to Swift as the CLMDB module. */
#include <lmdb.h>
