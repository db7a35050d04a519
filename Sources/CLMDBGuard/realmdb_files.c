/* realmdb_files.c: see include/realmdb_files.h. */
#define _GNU_SOURCE
#include "realmdb_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int realmdb_rename_noreplace(const char *from, const char *to) {
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return -1;
#endif
    if (link(from, to) != 0) return -1;
    (void)unlink(from);
    return 0;
}
