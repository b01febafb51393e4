// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The internal backend interface: what each platform file (linux.c, posix.c, darwin.c,
 * win.c) provides to lib/ and walker/. CMake compiles exactly one backend.
 */
#ifndef FRD_PLATFORM_PLATFORM_H
#define FRD_PLATFORM_PLATFORM_H

#include "frd.h"
#include "frd_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Inlines a hot helper that has more than one caller, where the compiler can be told
 *  (compilers leave a big static function with two callers out of line). */
#if defined(__GNUC__)
#    define FRD__ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#    define FRD__ALWAYS_INLINE __forceinline
#else
#    define FRD__ALWAYS_INLINE inline
#endif

/** Keeps a rarely taken branch's big function out of its hot caller, whose frame (the
 *  registers it saves at each call) then stays small. */
#if defined(__GNUC__)
#    define FRD__NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#    define FRD__NOINLINE __declspec(noinline)
#else
#    define FRD__NOINLINE
#endif

/** Size of a lister's kernel buffer: large enough that one call lists most directories. */
#define FRD__LISTER_BUFFER_SIZE (64 * 1024)

/** A lister. Defined here so that the backend can use its buffer directly. */
struct frd_lister {
    unsigned flags;         /**< enum frd_lister_flag */
    unsigned wanted;        /**< enum frd_field bits the caller asked for */
    uint8_t *buffer;        /**< FRD__LISTER_BUFFER_SIZE bytes, 16-byte aligned (malloc) */
    int error_code;         /**< the last listing's result if it failed, else 0 */
    const char *error_op;   /**< a static string naming the failed call */
    enum frd_op error_call; /**< its kind */
    char *error_name;       /**< copy of the directory's name, grown as needed */
    size_t error_name_capacity;
    void *backend; /**< state a backend may keep per lister (NULL where unused) */
    /* A listing in batches (frd_lister_batch_begin() to frd_lister_batch_end()): */
    frd_os_fd batch_fd; /**< the directory read in batches; FRD_INVALID_FD when none */
    bool batch_open;    /**< between frd_lister_batch_begin() and frd_lister_batch_end() */
    bool batch_started; /**< the first batch was read (the rewind is done) */
    bool batch_done;    /**< the end of the directory or a failure was met */
    bool batch_owns_fd; /**< batch_fd was opened by frd_lister_batch_open(): closed at the end */
    /** The last batch filled the kernel's buffer, so more entries most likely follow (Linux:
     *  getdents64 left less room than its largest record). A hint only: false elsewhere, and
     *  a batch that did not fill the buffer may still be followed by more (fuse, nfs). */
    bool batch_full;
    void *batch_state; /**< what a backend keeps between batches (posix: the DIR stream) */
    char *batch_name;  /**< copy of the name given to frd_lister_batch_begin() */
    size_t batch_name_capacity;
};

/**
 * Opens a directory for listing.
 * @param parent the directory `name` is relative to, or FRD_INVALID_FD for the current
 * directory (and for absolute names).
 * @param open_flags enum frd_open_flag bits.
 * @return 0 with *out set, or a negative code (FRD_ENOENT, FRD_ENOTDIR, FRD_ELOOP for a
 * symlink under FRD_OPEN_NOFOLLOW, FRD_EACCES, FRD_EMFILE, ...).
 */
int frd__plat_open_dir(frd_os_fd parent, const char *name, unsigned open_flags, frd_os_fd *out);

/**
 * Whether `c` separates path components: '/' everywhere, and '\\' too where the OS takes it
 * as one (Windows). The walker joins names with '/', and adds none after a root that already
 * ends in a separator: under the root C:\ it reports C:\Windows, not C:\/Windows.
 */
static inline bool frd__plat_is_sep(char c)
{
    return c == '/' || (FRD_HAS_BACKSLASH_SEPARATOR && c == '\\');
}

/** Closes a directory opened by frd__plat_open_dir(). */
void frd__plat_close_dir(frd_os_fd fd);

/**
 * Reads the whole regular file `name` relative to the directory `dir` (FRD_INVALID_FD: the
 * working directory; a symlink at `name` followed only if `follow`) into a new buffer (*buf, *len bytes, NUL after them; free it with
 * frd__free()), if it holds at most `max` bytes. @return 0, FRD_ENOENT where there is no
 * such file (nor a link, nor anything but a regular file there: FRD_ENOENT too, so callers
 * read ignore files and tags only), FRD_EOVERFLOW past `max`, FRD_ENOMEM, or the open's or the
 * read's code (FRD_EACCES, FRD_EIO, ...).
 */
int frd__plat_read_file_at(frd_os_fd dir, const char *name, bool follow, size_t max, char **buf,
                           size_t *len);

/** The call a listing failed in: its name for messages (static) and its kind. */
struct frd__failure {
    const char *op;
    enum frd_op call;
};

static inline void frd__failure_set(struct frd__failure *f, const char *op, enum frd_op call)
{
    f->op = op;
    f->call = call;
}

/**
 * Appends the entries of an open directory to `list`, honouring lister->flags.
 * @param op on failure, receives the call that failed.
 * @return the number of entries appended, or a negative code (entries appended before the
 * failure stay in the list).
 */
int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      struct frd__failure *op);

/**
 * Appends the next entries of lister->batch_fd (a listing in batches): reads kernel buffers
 * until at least one entry was appended or the directory ends (one buffer, except where
 * every record in it was "." or "..", vanished, or the backend cannot split a listing:
 * darwin.c lists the whole directory as one batch). Honours FRD_LIST_REWIND on the first
 * call (lister->batch_started false; the backend sets it).
 * @return the number of entries appended (> 0), 0 at the end of the directory, or a
 * negative code with `op` set (entries appended before the failure stay in the list).
 */
int frd__plat_list_batch(struct frd_lister *lister, struct frd_list *list, struct frd__failure *op);

/** Where frd__plat_names_next() is in the buffer frd__plat_names_read() filled. */
struct frd__names_cursor {
    size_t pos; /**< the next record's offset in lister->buffer */
    size_t len; /**< the bytes read */
    bool dirty; /**< the record given last may hold more than a record fills (zeroed next) */
};

/**
 * A names-only listing in batches read in place, with no list: frd__plat_names_read() reads
 * the next kernel buffer of lister->batch_fd into lister->buffer (FRD_LIST_REWIND on the
 * first call, as frd__plat_list_batch() honours it, which may take over for later batches),
 * and frd__plat_names_next() gives its entries one at a time, each as
 * frd__plat_list_batch() would have appended it, but with its name pointing into the
 * buffer (NUL-terminated, valid until the next read): no name copy, no record in a list.
 * @return for frd__plat_names_read(): the bytes read (> 0), 0 at the end, FRD_ENOTSUP where
 * the backend cannot (only Linux can) or the lister wants more than the type (nothing was
 * read: list with frd__plat_list_batch()), or another negative code with `op` set.
 */
int frd__plat_names_read(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd__failure *op);

/**
 * The next entry of the buffer frd__plat_names_read() filled, into `e` (a record of unknown
 * type is stat'ed for it; one that vanished meanwhile is passed over, as a listing leaves
 * it out). `e` must be the same record, untouched by the caller, for every call on one
 * buffer: only what differs from the entry before is written. @return 1 with *e filled, 0 at the end of the buffer, or a negative code with
 * `op` set (a malformed record: the rest of the buffer is not read).
 */
int frd__plat_names_next(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd_entry *e, struct frd__failure *op);

/** Releases what a backend keeps in lister->batch_state between batches (posix: closedir). */
void frd__plat_batch_end(struct frd_lister *lister);

/**
 * The enum frd_field bits a listing fills from the directory records alone, with no call
 * per entry: type and file id where the records carry d_type and d_ino (Linux, other Unix
 * systems), every field where they carry the metadata (Windows, macOS). A walk that wants
 * more than these pays a stat per entry, which it can spread over its workers.
 */
extern const unsigned frd__plat_record_fields;

/** Frees what a backend keeps in lister->backend (nothing on most platforms). */
void frd__plat_lister_release(struct frd_lister *lister);

/* ---- What the walker needs from the OS (walker/ stays free of OS headers) ---- */

/** How far a volume's file ids can be trusted; decides loop and duplicate detection. */
enum frd__vol_class {
    /** Ids may be invented, reused or zero (fuse, unknown file systems): compare canonical
     *  paths, never ids. */
    FRD__VOL_UNTRUSTED = 0,
    /** Ids are valid only while the file is pinned (open or cached): vfat, exfat, overlay
     *  (xino unknown), cifs. No hard links to track; ancestors stay pinned by the walk. */
    FRD__VOL_WEAK = 1,
    /** Ids are stable and unique per device (ext4, xfs, btrfs per subvolume, tmpfs, nfs...). */
    FRD__VOL_STRONG = 2,
};

/** The identity of an open file: what two paths to the same directory share. */
struct frd__identity {
    uint64_t dev;    /**< device (st_dev) */
    uint64_t ino;    /**< file id (st_ino) */
    uint64_t subvol; /**< subvolume where the OS reports one (Linux statx STATX_SUBVOL), else 0 */
};

/**
 * Stats `name` relative to the open directory `dir` (FRD_INVALID_FD: the current directory,
 * or `name` is absolute) into `e`, filling the fields a listing with the same `wanted`
 * (enum frd_field bits; the type is always filled) fills. `follow` says whether a symlink is
 * followed. e->name is left alone.
 * @return 0, or a negative code (FRD_ENOENT, FRD_ELOOP, FRD_EACCES, ...).
 */
int frd__plat_stat_fields(frd_os_fd dir, const char *name, bool follow, unsigned wanted,
                          struct frd_entry *e);

/** frd__plat_stat_fields() for the type alone (`names_only`) or for every field. */
static inline int frd__plat_stat_at(frd_os_fd dir, const char *name, bool follow, bool names_only,
                                    struct frd_entry *e)
{
    return frd__plat_stat_fields(dir, name, follow, names_only ? FRD_FIELD_TYPE : FRD_FIELDS_ALL,
                                 e);
}

/** Reads the identity of an open file. @return 0 or a negative code. */
int frd__plat_fd_identity(frd_os_fd fd, struct frd__identity *out);

/**
 * Classifies the volume holding an open directory (Linux: fstatfs f_type through the table
 * of frd__plat_classify_fs_type()). @return 0 with *out set, or a negative code.
 */
int frd__plat_volume_class(frd_os_fd fd, enum frd__vol_class *out);

/** The classification table itself, by the OS's file system type number (tests use it). */
enum frd__vol_class frd__plat_classify_fs_type(uint64_t fs_type);

/**
 * Reads the target of the symbolic link `name` in the open directory `dir` (readlinkat;
 * FRD_INVALID_FD: the current directory, or `name` is absolute) into *buf, grown with
 * FRD__RESERVE as needed for a target of any length, NUL-terminated; `hint` is the length
 * expected (the link's st_size, 0 if unknown): one call when it is right.
 * @return the target's length, or a negative code (FRD_EINVAL: not a link, FRD_ENOENT,
 * FRD_ENOMEM, FRD_ENOTSUP where the platform has no such call, ...).
 */
int frd__plat_read_link(frd_os_fd dir, const char *name, size_t hint, char **buf, size_t *cap);

/** A worker's buffers for the extended attributes of the entry it visits. */
struct frd__xattr_buf {
    char *names; /**< the names, as the kernel lists them (NUL-separated) */
    size_t names_cap;
    char *values; /**< the values, one after another */
    size_t values_cap;
    struct frd_xattr *items; /**< pointing into names and values */
    size_t items_cap;
};

/**
 * Reads the extended attributes of `name` in the open directory `dir` (FRD_INVALID_FD: the
 * current directory, or `name` is absolute), not following it if it is a link (unless
 * `follow`: the walk followed it and visits its target), without
 * reaching it by a path from the root or opening it for I/O, into b->items: names and
 * values, a value over `value_max` bytes flagged too_long with its size and no bytes.
 * @return how many, or a negative code: FRD_ENOTSUP where the file system (or platform)
 * has no extended attributes, FRD_ENOENT, FRD_ENOMEM, ...
 */
int frd__plat_read_xattrs(frd_os_fd dir, const char *name, bool follow, size_t value_max,
                          struct frd__xattr_buf *b);

/**
 * Writes the canonical absolute path of an open directory into buf (NUL-terminated).
 * @return its length, FRD_ENAMETOOLONG when it does not fit, FRD_ENOSYS where the OS cannot
 * tell, or another negative code.
 */
int frd__plat_fd_path(frd_os_fd fd, char *buf, size_t cap);

/**
 * The canonical absolute path of `path` ('/'-separated, links resolved), malloc'd (free()
 * it), or NULL: it cannot be resolved, no memory, or the OS's paths are not of that form
 * (Windows: the ignore rules then find a repository only at or below a walk's root).
 */
char *frd__plat_real_path(const char *path);

/** memmem(3) where libc has it (glibc, macOS), a memchr() loop where it does not (Windows).
 *  @return the first place `needle` (nlen bytes, nlen > 0) starts in `hay`, or NULL. */
const void *frd__plat_memmem(const void *hay, size_t hlen, const void *needle, size_t nlen);

/**
 * Can the mounts of this process make a directory cycle (a mount of a device below another
 * mount of the same device: a bind mount of a directory below itself, a device mounted
 * inside itself)? A walk whose listing gives no ids stats each directory for the ancestor
 * check only when this says yes. Linux reads /proc/self/mountinfo; elsewhere, or when it
 * cannot tell, true.
 */
bool frd__plat_mounts_may_cycle(void);

/**
 * May this process search every directory whatever its mode (POSIX: root)? When not, a
 * walk whose listing gives no stat checks that each directory it lists can be searched
 * (one stat of its first subdirectory), as find learns it from its stat of every directory.
 */
bool frd__plat_searches_everything(void);

/** @return how many descriptors the process may open (soft RLIMIT_NOFILE), 0 if unknown. */
unsigned frd__plat_fd_limit(void);

/** Address space held while a walk starts threads (frd__plat_room_hold()). */
struct frd__plat_room {
    void *base; /**< the mapping, or NULL when none was needed */
    size_t len;
};

/**
 * Under a limit of the process's address space (POSIX: a finite RLIMIT_AS, `ulimit -v`),
 * maps `len` bytes that nothing may touch, so that threads started while it is held (their
 * stacks take address space) leave that much free once frd__plat_room_free() gives it back:
 * a walk that starts as many threads as fit would have no room left for its allocations.
 * Without such a limit (or with `len` 0) it maps nothing (a getrlimit() call at most). @return 0 (held, or no limit),
 * or FRD_ENOMEM when `len` bytes are not free: start no more threads then.
 */
int frd__plat_room_hold(struct frd__plat_room *room, size_t len);
/** Gives back what frd__plat_room_hold() mapped (nothing if it mapped nothing). */
void frd__plat_room_free(struct frd__plat_room *room);

/** Where the calling thread's time went so far (frd__plat_thread_times()). */
struct frd__thread_times {
    uint64_t cpu_ns;      /**< on a CPU */
    uint64_t blocks;      /**< times it gave the CPU up (waited: I/O, a lock); 0 if unknown */
    uint64_t preemptions; /**< times it was made to give it up; 0 if unknown */
    bool switches;        /**< the two counts above are known */
};

/**
 * The calling thread's CPU time and, where the OS tells them (Linux), its voluntary and
 * involuntary context switches: the walker's pool compares them with wall time to see
 * whether its workers sit blocked on I/O or wait for a CPU. @return 0, or a negative code
 * when the OS cannot tell.
 */
int frd__plat_thread_times(struct frd__thread_times *out);

/**
 * Tests only: makes the backend take its fallback path for metadata (Linux: fstatat instead
 * of statx) when `on`, and lets it probe again when not. Returns false where the backend has
 * no fallback.
 */
bool frd__plat_force_fallback(bool on);

/**
 * Tests only: when set, called between reading a record and stat'ing its name, so a test
 * can delete the entry in between, or count the stats a listing makes (it is called once
 * before every per-entry stat and never when no stat is made). NULL in normal use (one
 * predictable branch per entry).
 */
extern void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

/**
 * Tests only: when true, every batch a lister reads says that it filled the kernel's buffer
 * (lister->batch_full), as a directory whose one batch filled it exactly would: the ordered
 * walk then takes each listing for a large one, of one run when it has one batch. False in
 * normal use.
 */
extern bool frd__test_batch_full;

#endif // FRD_PLATFORM_PLATFORM_H
