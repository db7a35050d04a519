/* powerloss_shim.c: an LD_PRELOAD journal of every write and sync reaching one data file.
 *
 * Used by tests/faults/crash_durability.py, which compiles it into a temporary directory:
 *     cc -shared -fPIC -O2 -Wall -o <tmp>/powerloss.so powerloss_shim.c -ldl -lpthread
 *
 * Environment:
 *   POWERLOSS_TARGET   path of the data file to watch (required; nothing is watched without it).
 *                      An opened file is watched when its device and inode are the target's, so
 *                      relative paths, openat and symlinks cannot hide it; the "-lock" file is not.
 *   POWERLOSS_CREATING path of the name a new data file is built under before it is renamed to
 *                      the target (optional): a file opened under it is watched as the target
 *                      (its inode becomes the target's), and its directory (the target's) too.
 *   POWERLOSS_JOURNAL  path of the journal to append to (optional: without it nothing is logged).
 *   POWERLOSS_KILL_AT  n >= 1: raise SIGKILL at the n-th write or sync of the watched file ...
 *   POWERLOSS_KILL_WHEN  ... "before" the real call (default) or "after" it returned.
 *
 * Intercepted: open, open64, openat, openat64, creat, creat64 (to learn the file's descriptors,
 * and which of them were opened with O_DSYNC/O_SYNC), close, dup, dup2, dup3, write, pwrite,
 * pwrite64, writev, pwritev, pwritev64, pwritev2, pwritev64v2, ftruncate, ftruncate64,
 * fallocate, fallocate64, fsync, fdatasync, sync_file_range, msync (on a mapping of the file:
 * mmap and mmap64 are intercepted to know them), sync and syncfs; and rename, renameat,
 * renameat2, link and linkat (a new file given the target's name), and fsync/fdatasync of a
 * descriptor of the target's directory (which makes such a name durable).
 * LMDB 0.9 (Debian's liblmdb0) uses open, pwrite (one page or the meta page), lseek + writev
 * (runs of dirty pages), fdatasync, and pwrite on a second descriptor opened with O_DSYNC for
 * the meta page; the rest is here so that a different build cannot slip past unseen.
 *
 * The journal is a sequence of records, each appended with one writev(2) (a record cut short by
 * SIGKILL is ignored by the reader), in the order of the operations (a write holds the shim's
 * lock from its intent to its completion):
 *   u32 magic 0x314a4c50 ("PLJ1"), u8 type, u8 fd kind (0 normal, 1 O_DSYNC), u16 zero,
 *   i32 fd, u32 pid, u64 seq, i64 offset, u64 length, u64 aux, then `length` bytes for 'I'.
 * Types:
 *   'I' a write is about to be made: `length` bytes at file offset `offset` (the bytes follow).
 *   'W' it returned, having written `length` bytes (aux = the seq of its 'I'). A write on an
 *       O_DSYNC descriptor is durable when it returns. A process killed during the call leaves
 *       an 'I' without its 'W': the write may or may not have happened.
 *   'S' a completed fsync/fdatasync/msync/sync/syncfs: every write whose seq is below `aux` (the
 *       sequence number when the sync was called) is durable.
 *   'R' a completed sync_file_range (`aux` as for 'S'): NOT a durability point (it neither
 *       flushes the disk cache nor the metadata; the reader only counts it).
 *   'T' a completed ftruncate/fallocate: the file size became `offset` (truncate) or at least
 *       offset + length (fallocate, aux 1). Durable only after a later sync, like a write.
 *   'O' an open of the file (aux = open flags), 'C' a close.
 *   'N' the target's name now leads to a new file (aux 0: renamed to it, 1: linked): the file
 *       (written before under POWERLOSS_CREATING) has the name, durably after the next 'D'.
 *   'D' a completed fsync/fdatasync of the target's directory (aux as for 'S'): every name
 *       change ('N') whose seq is below `aux` is durable.
 *   'M' a mark written by the program under test: powerloss_mark(value) with aux = value
 *       (the crash suite marks commit i begun with 2i+1 and acknowledged with 2i, in order
 *       with the file operations). A sync of any descriptor of the file covers every write.
 *   'K' the shim is about to SIGKILL the process (POWERLOSS_KILL_AT).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 65536
#define MAX_MAPS 64
#define MAGIC 0x314a4c50u

struct record {
    uint32_t magic;
    uint8_t type;
    uint8_t kind;
    uint16_t zero;
    int32_t fd;
    uint32_t pid;
    uint64_t seq;
    int64_t offset;
    uint64_t length;
    uint64_t aux;
} __attribute__((packed));

/* 0: not the target; 1: the target, normal; 2: the target, O_DSYNC/O_SYNC. */
static unsigned char fd_kind[MAX_FD];
static struct { uintptr_t start, end; } maps[MAX_MAPS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int journal_fd = -1;
static uint64_t seq = 1;
static dev_t target_dev;
static ino_t target_ino;
static int have_target;
static char target_path[4096];
/* The name a new file is built under (POWERLOSS_CREATING), and the target's directory. */
static dev_t creating_dev;
static ino_t creating_ino;
static int have_creating;
static char creating_path[4096];
static dev_t dir_dev;
static ino_t dir_ino;
static int have_dir;
static unsigned char dir_fd[MAX_FD]; /* 1: a descriptor of the target's directory */
static long kill_at;
static int kill_after;
static long ops;

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_creat)(const char *, mode_t);
static int (*real_creat64)(const char *, mode_t);
static int (*real_close)(int);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev64)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev2)(int, const struct iovec *, int, off_t, int);
static ssize_t (*real_pwritev64v2)(int, const struct iovec *, int, off_t, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);
static int (*real_fallocate)(int, int, off_t, off_t);
static int (*real_fallocate64)(int, int, off_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_sync_file_range)(int, off_t, off_t, unsigned int);
static int (*real_msync)(void *, size_t, int);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static void *(*real_mmap64)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static void (*real_sync)(void);
static int (*real_syncfs)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_renameat2)(int, const char *, int, const char *, unsigned int);
static int (*real_link)(const char *, const char *);
static int (*real_linkat)(int, const char *, int, const char *, int);

#define RESOLVE(name) real_##name = dlsym(RTLD_NEXT, #name)

static void resolve_all(void) {
    RESOLVE(open); RESOLVE(open64); RESOLVE(openat); RESOLVE(openat64); RESOLVE(creat);
    RESOLVE(creat64); RESOLVE(close); RESOLVE(dup); RESOLVE(dup2); RESOLVE(dup3); RESOLVE(write);
    RESOLVE(pwrite); RESOLVE(pwrite64); RESOLVE(writev); RESOLVE(pwritev); RESOLVE(pwritev64);
    RESOLVE(pwritev2); RESOLVE(pwritev64v2); RESOLVE(ftruncate); RESOLVE(ftruncate64);
    RESOLVE(fallocate); RESOLVE(fallocate64); RESOLVE(fsync); RESOLVE(fdatasync);
    RESOLVE(sync_file_range); RESOLVE(msync); RESOLVE(mmap); RESOLVE(mmap64); RESOLVE(munmap);
    RESOLVE(sync); RESOLVE(syncfs); RESOLVE(rename); RESOLVE(renameat); RESOLVE(renameat2);
    RESOLVE(link); RESOLVE(linkat);
}

static void refresh_target(void) {
    struct stat st;
    if (target_path[0] && stat(target_path, &st) == 0) {
        target_dev = st.st_dev;
        target_ino = st.st_ino;
        have_target = 1;
    }
    if (creating_path[0] && stat(creating_path, &st) == 0) {
        creating_dev = st.st_dev;
        creating_ino = st.st_ino;
        have_creating = 1;
    }
}

/* Whether an opened file is the target, or the file built under the creating name. */
static int is_target(const struct stat *st) {
    return (have_target && st->st_dev == target_dev && st->st_ino == target_ino) ||
           (have_creating && st->st_dev == creating_dev && st->st_ino == creating_ino);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void shim_init_once(void);
/* Every entry point makes sure the real functions are known (another library's constructor
 * may write before ours has run). */
#define READY() pthread_once(&once, shim_init_once)

__attribute__((constructor)) static void shim_init(void) { READY(); }

static void shim_init_once(void) {
    resolve_all();
    const char *target = getenv("POWERLOSS_TARGET");
    const char *creating = getenv("POWERLOSS_CREATING");
    if (target) {
        strncpy(target_path, target, sizeof target_path - 1);
        if (creating) strncpy(creating_path, creating, sizeof creating_path - 1);
        refresh_target();
        char dir[4096];
        strncpy(dir, target_path, sizeof dir - 1);
        dir[sizeof dir - 1] = 0;
        char *slash = strrchr(dir, '/');
        struct stat st;
        if (slash) *(slash == dir ? slash + 1 : slash) = 0;
        if (stat(slash ? dir : ".", &st) == 0) {
            dir_dev = st.st_dev;
            dir_ino = st.st_ino;
            have_dir = 1;
        }
    }
    const char *journal = getenv("POWERLOSS_JOURNAL");
    if (journal && target)
        journal_fd = real_open(journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const char *k = getenv("POWERLOSS_KILL_AT");
    if (k) kill_at = strtol(k, NULL, 10);
    const char *when = getenv("POWERLOSS_KILL_WHEN");
    kill_after = when && strcmp(when, "after") == 0;
}

static int watched(int fd) { return fd >= 0 && fd < MAX_FD && fd_kind[fd] != 0; }

/* Appends one record (and `length` bytes of payload gathered from iov, if given); the caller
 * holds `lock`. */
static void append_locked(uint8_t type, int fd, int64_t offset, uint64_t length, uint64_t aux,
                          const struct iovec *iov, int iovcnt) {
    if (journal_fd < 0) return;
    struct record r = {MAGIC, type, (uint8_t)(watched(fd) ? fd_kind[fd] - 1 : 0), 0, fd,
                       (uint32_t)getpid(), seq++, offset, length, aux};
    struct iovec parts[1 + 1024];
    int n = 1;
    size_t total = sizeof r;
    if (iov) { /* the payload: `length` bytes gathered from iov (the record says how many) */
        uint64_t left = length;
        for (int i = 0; i < iovcnt && left > 0 && n < 1025; i++) {
            size_t take = iov[i].iov_len < left ? iov[i].iov_len : left;
            parts[n].iov_base = iov[i].iov_base;
            parts[n++].iov_len = take;
            left -= take;
            total += take;
        }
        r.length = length - left;
    }
    parts[0].iov_base = &r;
    parts[0].iov_len = sizeof r;
    /* One writev for the whole record; continue on a short write (the journal is a file). */
    struct iovec *p = parts;
    while (n > 0) {
        ssize_t w = real_writev(journal_fd, p, n > 1024 ? 1024 : n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        total -= (size_t)w;
        if (total == 0) break;
        while (n > 0 && (size_t)w >= p->iov_len) { w -= (ssize_t)p->iov_len; p++; n--; }
        if (n > 0) { p->iov_base = (char *)p->iov_base + w; p->iov_len -= (size_t)w; }
    }
}

static void append(uint8_t type, int fd, int64_t offset, uint64_t length, uint64_t aux,
                   const struct iovec *iov, int iovcnt) {
    pthread_mutex_lock(&lock);
    append_locked(type, fd, offset, length, aux, iov, iovcnt);
    pthread_mutex_unlock(&lock);
}

/* Counts a write or sync of the watched file; kills the process at POWERLOSS_KILL_AT. */
static void maybe_kill(int after) {
    if (kill_at <= 0 || after != kill_after) return;
    long n = after ? ops : __atomic_add_fetch(&ops, 1, __ATOMIC_SEQ_CST);
    if (n == kill_at) {
        append('K', -1, 0, 0, (uint64_t)n, NULL, 0);
        raise(SIGKILL);
    }
}

static void count_op(void) {
    if (kill_after) __atomic_add_fetch(&ops, 1, __ATOMIC_SEQ_CST);
}

static void note_open(int fd, int flags) {
    if (fd < 0 || fd >= MAX_FD || !target_path[0]) return;
    struct stat st;
    fd_kind[fd] = 0;
    dir_fd[fd] = 0;
    if (fstat(fd, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        dir_fd[fd] = have_dir && st.st_dev == dir_dev && st.st_ino == dir_ino;
        return;
    }
    if (!S_ISREG(st.st_mode)) return;
    if (!is_target(&st)) {
        refresh_target(); /* the file may have been created since the constructor ran */
        if (!is_target(&st)) return;
    }
    fd_kind[fd] = (flags & O_DSYNC) ? 2 : 1; /* O_SYNC includes the O_DSYNC bit on Linux */
    append('O', fd, 0, 0, (uint64_t)flags, NULL, 0);
}

static mode_t mode_arg(int flags, va_list ap) {
    return ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
    READY();
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    int fd = real_open(path, flags, mode);
    note_open(fd, flags);
    return fd;
}

int open64(const char *path, int flags, ...) {
    READY();
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    int fd = real_open64 ? real_open64(path, flags, mode) : real_open(path, flags, mode);
    note_open(fd, flags);
    return fd;
}

int openat(int dirfd, const char *path, int flags, ...) {
    READY();
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    int fd = real_openat(dirfd, path, flags, mode);
    note_open(fd, flags);
    return fd;
}

int openat64(int dirfd, const char *path, int flags, ...) {
    READY();
    va_list ap; va_start(ap, flags); mode_t mode = mode_arg(flags, ap); va_end(ap);
    int fd = real_openat64 ? real_openat64(dirfd, path, flags, mode) : real_openat(dirfd, path, flags, mode);
    note_open(fd, flags);
    return fd;
}

int creat(const char *path, mode_t mode) {
    READY();
    int fd = real_creat(path, mode);
    note_open(fd, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

int creat64(const char *path, mode_t mode) {
    READY();
    int fd = real_creat64 ? real_creat64(path, mode) : real_creat(path, mode);
    note_open(fd, O_WRONLY | O_CREAT | O_TRUNC);
    return fd;
}

int close(int fd) {
    READY();
    int was = watched(fd);
    if (was) fd_kind[fd] = 0;
    if (fd >= 0 && fd < MAX_FD) dir_fd[fd] = 0;
    int rc = real_close(fd);
    if (was) append('C', fd, 0, 0, 0, NULL, 0);
    return rc;
}

static int copy_kind(int oldfd, int newfd) {
    if (newfd >= 0 && newfd < MAX_FD) {
        fd_kind[newfd] = watched(oldfd) ? fd_kind[oldfd] : 0;
        dir_fd[newfd] = oldfd >= 0 && oldfd < MAX_FD ? dir_fd[oldfd] : 0;
    }
    return newfd;
}

int dup(int fd) { READY(); return copy_kind(fd, real_dup(fd)); }
int dup2(int fd, int fd2) { READY(); return copy_kind(fd, real_dup2(fd, fd2)); }
int dup3(int fd, int fd2, int flags) { READY(); return copy_kind(fd, real_dup3(fd, fd2, flags)); }

/* The common path of every write: offset -1 means "the descriptor's position before the call". */
static ssize_t logged_write(int fd, const struct iovec *iov, int iovcnt, off_t offset,
                            ssize_t (*call)(void *), void *ctx) {
    maybe_kill(0);
    pthread_mutex_lock(&lock);
    if (offset < 0) {
        off_t pos = lseek(fd, 0, SEEK_CUR);
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0 && (flags & O_APPEND)) {
            struct stat st;
            pos = fstat(fd, &st) == 0 ? st.st_size : pos;
        }
        offset = pos;
    }
    uint64_t requested = 0;
    for (int i = 0; i < iovcnt; i++) requested += iov[i].iov_len;
    uint64_t intent = seq;
    append_locked('I', fd, (int64_t)offset, requested, 0, iov, iovcnt);
    ssize_t rc = call(ctx);
    int saved = errno;
    if (rc > 0) append_locked('W', fd, (int64_t)offset, (uint64_t)rc, intent, NULL, 0);
    pthread_mutex_unlock(&lock);
    count_op();
    maybe_kill(1);
    errno = saved;
    return rc;
}

struct wctx {
    int fd;
    const void *buf;
    size_t n;
    const struct iovec *iov;
    int iovcnt;
    off_t off;
    int flags;
    int which;
};

static ssize_t do_write(void *p) {
    struct wctx *c = p;
    switch (c->which) {
    case 0: return real_write(c->fd, c->buf, c->n);
    case 1: return real_pwrite(c->fd, c->buf, c->n, c->off);
    case 2: return real_pwrite64 ? real_pwrite64(c->fd, c->buf, c->n, c->off) : real_pwrite(c->fd, c->buf, c->n, c->off);
    case 3: return real_writev(c->fd, c->iov, c->iovcnt);
    case 4: return real_pwritev(c->fd, c->iov, c->iovcnt, c->off);
    case 5: return real_pwritev64 ? real_pwritev64(c->fd, c->iov, c->iovcnt, c->off) : real_pwritev(c->fd, c->iov, c->iovcnt, c->off);
    case 6: return real_pwritev2(c->fd, c->iov, c->iovcnt, c->off, c->flags);
    default: return real_pwritev64v2 ? real_pwritev64v2(c->fd, c->iov, c->iovcnt, c->off, c->flags) : real_pwritev2(c->fd, c->iov, c->iovcnt, c->off, c->flags);
    }
}

ssize_t write(int fd, const void *buf, size_t n) {
    READY();
    if (!watched(fd)) return real_write(fd, buf, n);
    struct wctx c = {fd, buf, n, NULL, 0, 0, 0, 0};
    struct iovec one = {(void *)buf, n};
    return logged_write(fd, &one, 1, -1, do_write, &c);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    READY();
    if (!watched(fd)) return real_pwrite(fd, buf, n, off);
    struct wctx c = {fd, buf, n, NULL, 0, off, 0, 1};
    struct iovec one = {(void *)buf, n};
    return logged_write(fd, &one, 1, off, do_write, &c);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    READY();
    if (!watched(fd)) return real_pwrite64 ? real_pwrite64(fd, buf, n, off) : real_pwrite(fd, buf, n, off);
    struct wctx c = {fd, buf, n, NULL, 0, off, 0, 2};
    struct iovec one = {(void *)buf, n};
    return logged_write(fd, &one, 1, off, do_write, &c);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    READY();
    if (!watched(fd)) return real_writev(fd, iov, iovcnt);
    struct wctx c = {fd, NULL, 0, iov, iovcnt, 0, 0, 3};
    return logged_write(fd, iov, iovcnt, -1, do_write, &c);
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t off) {
    READY();
    if (!watched(fd)) return real_pwritev(fd, iov, iovcnt, off);
    struct wctx c = {fd, NULL, 0, iov, iovcnt, off, 0, 4};
    return logged_write(fd, iov, iovcnt, off, do_write, &c);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int iovcnt, off_t off) {
    READY();
    if (!watched(fd)) return real_pwritev64 ? real_pwritev64(fd, iov, iovcnt, off) : real_pwritev(fd, iov, iovcnt, off);
    struct wctx c = {fd, NULL, 0, iov, iovcnt, off, 0, 5};
    return logged_write(fd, iov, iovcnt, off, do_write, &c);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags) {
    READY();
    if (!watched(fd)) return real_pwritev2(fd, iov, iovcnt, off, flags);
    struct wctx c = {fd, NULL, 0, iov, iovcnt, off, flags, 6};
    /* offset -1 with pwritev2 means "the current position", as for writev */
    return logged_write(fd, iov, iovcnt, off, do_write, &c);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags) {
    READY();
    if (!watched(fd)) return real_pwritev64v2 ? real_pwritev64v2(fd, iov, iovcnt, off, flags) : real_pwritev2(fd, iov, iovcnt, off, flags);
    struct wctx c = {fd, NULL, 0, iov, iovcnt, off, flags, 7};
    return logged_write(fd, iov, iovcnt, off, do_write, &c);
}

static int logged_resize(int fd, int64_t offset, uint64_t length, uint64_t aux, int rc) {
    int saved = errno;
    if (rc == 0) append('T', fd, offset, length, aux, NULL, 0);
    errno = saved;
    return rc;
}

int ftruncate(int fd, off_t len) {
    READY();
    if (!watched(fd)) return real_ftruncate(fd, len);
    return logged_resize(fd, len, 0, 0, real_ftruncate(fd, len));
}

int ftruncate64(int fd, off_t len) {
    READY();
    if (!watched(fd)) return real_ftruncate64 ? real_ftruncate64(fd, len) : real_ftruncate(fd, len);
    return logged_resize(fd, len, 0, 0, real_ftruncate64 ? real_ftruncate64(fd, len) : real_ftruncate(fd, len));
}

int fallocate(int fd, int mode, off_t off, off_t len) {
    READY();
    if (!watched(fd)) return real_fallocate(fd, mode, off, len);
    return logged_resize(fd, off, (uint64_t)len, 1, real_fallocate(fd, mode, off, len));
}

int fallocate64(int fd, int mode, off_t off, off_t len) {
    READY();
    if (!watched(fd)) return real_fallocate64 ? real_fallocate64(fd, mode, off, len) : real_fallocate(fd, mode, off, len);
    return logged_resize(fd, off, (uint64_t)len, 1,
                         real_fallocate64 ? real_fallocate64(fd, mode, off, len) : real_fallocate(fd, mode, off, len));
}

/* The sequence number when a sync starts: every write logged before it is covered. */
static uint64_t current_seq(void) {
    pthread_mutex_lock(&lock);
    uint64_t s = seq;
    pthread_mutex_unlock(&lock);
    return s;
}

static int logged_sync(uint8_t type, int fd, int (*call)(int)) {
    maybe_kill(0);
    uint64_t start = current_seq();
    int rc = call(fd);
    int saved = errno;
    if (rc == 0) append(type, fd, 0, 0, start, NULL, 0);
    count_op();
    maybe_kill(1);
    errno = saved;
    return rc;
}

static int is_dir_fd(int fd) { return fd >= 0 && fd < MAX_FD && dir_fd[fd]; }

int fsync(int fd) {
    READY();
    if (is_dir_fd(fd)) return logged_sync('D', fd, real_fsync);
    if (!watched(fd)) return real_fsync(fd);
    return logged_sync('S', fd, real_fsync);
}

int fdatasync(int fd) {
    READY();
    if (is_dir_fd(fd)) return logged_sync('D', fd, real_fdatasync);
    if (!watched(fd)) return real_fdatasync(fd);
    return logged_sync('S', fd, real_fdatasync);
}

int syncfs(int fd) {
    READY();
    if (!have_target || !target_path[0]) return real_syncfs(fd);
    /* syncfs of the target's file system covers it: treat like fsync of the file. */
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_dev != target_dev) return real_syncfs(fd);
    return logged_sync('S', fd, real_syncfs);
}

void sync(void) {
    READY();
    uint64_t start = current_seq();
    real_sync();
    if (have_target) append('S', -1, 0, 0, start, NULL, 0);
}

int sync_file_range(int fd, off_t off, off_t n, unsigned int flags) {
    READY();
    if (!watched(fd)) return real_sync_file_range(fd, off, n, flags);
    uint64_t start = current_seq();
    int rc = real_sync_file_range(fd, off, n, flags);
    int saved = errno;
    if (rc == 0) append('R', fd, off, (uint64_t)n, start, NULL, 0);
    errno = saved;
    return rc;
}

static void note_map(void *addr, size_t len, int fd) {
    if (addr == MAP_FAILED || !watched(fd)) return;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_MAPS; i++) {
        if (maps[i].start == 0) {
            maps[i].start = (uintptr_t)addr;
            maps[i].end = (uintptr_t)addr + len;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    void *p = real_mmap(addr, len, prot, flags, fd, off);
    note_map(p, len, fd);
    return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    void *p = real_mmap64 ? real_mmap64(addr, len, prot, flags, fd, off) : real_mmap(addr, len, prot, flags, fd, off);
    note_map(p, len, fd);
    return p;
}

int munmap(void *addr, size_t len) {
    READY();
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_MAPS; i++)
        if (maps[i].start == (uintptr_t)addr) maps[i].start = maps[i].end = 0;
    pthread_mutex_unlock(&lock);
    return real_munmap(addr, len);
}

int msync(void *addr, size_t len, int flags) {
    READY();
    uintptr_t a = (uintptr_t)addr;
    int ours = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_MAPS; i++)
        if (maps[i].start && a < maps[i].end && a + len > maps[i].start) ours = 1;
    pthread_mutex_unlock(&lock);
    if (!ours) return real_msync(addr, len, flags);
    /* Writes through a shared writable map (LMDB's MDB_WRITEMAP) never pass through write(2),
     * so the journal cannot hold their bytes: the reader refuses a journal with 'S' records of
     * this kind and no 'W' records. A synchronous msync is still a durability point. */
    maybe_kill(0);
    uint64_t start = current_seq();
    int rc = real_msync(addr, len, flags);
    int saved = errno;
    if (rc == 0 && (flags & MS_SYNC)) append('S', -2, 0, 0, start, NULL, 0);
    count_op();
    maybe_kill(1);
    errno = saved;
    return rc;
}

/* Called by the program under test (through ctypes): a mark in order with the file operations. */
void powerloss_mark(uint64_t value) { READY(); append('M', -1, 0, 0, value, NULL, 0); }

/* After a rename or link: when the target's name now leads to another file than before (the
 * file built under the creating name), records 'N' and watches that file as the target. */
static int note_name(int rc, int how) {
    int saved = errno;
    struct stat st;
    if (rc == 0 && target_path[0] && stat(target_path, &st) == 0 &&
        (!have_target || st.st_dev != target_dev || st.st_ino != target_ino)) {
        target_dev = st.st_dev;
        target_ino = st.st_ino;
        have_target = 1;
        append('N', -1, 0, 0, (uint64_t)how, NULL, 0);
    }
    errno = saved;
    return rc;
}

int rename(const char *from, const char *to) {
    READY();
    return note_name(real_rename(from, to), 0);
}

int renameat(int fromdir, const char *from, int todir, const char *to) {
    READY();
    return note_name(real_renameat(fromdir, from, todir, to), 0);
}

int renameat2(int fromdir, const char *from, int todir, const char *to, unsigned int flags) {
    READY();
    return note_name(real_renameat2(fromdir, from, todir, to, flags), 0);
}

int link(const char *from, const char *to) {
    READY();
    return note_name(real_link(from, to), 1);
}

int linkat(int fromdir, const char *from, int todir, const char *to, int flags) {
    READY();
    return note_name(real_linkat(fromdir, from, todir, to, flags), 1);
}
