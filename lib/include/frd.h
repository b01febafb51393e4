// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frd: list directories and walk directory trees as fast as the kernel allows.
 *
 * This is the one installed header. It declares:
 *
 *   - errors          negative codes, FRD_EXXX == -EXXX on POSIX, frd_strerror()
 *   - allocator       frd_replace_allocator(), to count or redirect every allocation
 *   - entries         struct frd_entry and the comparisons used for change detection
 *   - entry lists     struct frd_list: reusable entries plus one name arena
 *   - listers         struct frd_lister: one 64 KiB kernel buffer, reused per listing
 *   - frd_read_dir()  the one-call convenience, sorted by name
 *   - the walker      frd_walk(): parallel, safe, ordered or not, with hooks
 *
 * Where each part lives, and the layers of the source tree: lib/README.md.
 *
 * Thread safety: every function may be called from any thread. A lister and a list
 * are not shared: use one of each per thread (they are cheap to keep and reuse).
 */
#ifndef FRD_H
#define FRD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The export macro and the OS handle type are the only platform tests outside platform/. */
#if defined(_WIN32)
#    if defined(FRD_BUILDING_SHARED)
#        define FRD_EXTERN __declspec(dllexport)
#    elif defined(FRD_USING_SHARED)
#        define FRD_EXTERN __declspec(dllimport)
#    else
#        define FRD_EXTERN
#    endif
/** An open directory: a HANDLE on Windows. */
typedef void *frd_os_fd;
#    define FRD_INVALID_FD ((frd_os_fd)(intptr_t)-1)
#else
#    if defined(__GNUC__)
#        define FRD_EXTERN __attribute__((visibility("default")))
#    else
#        define FRD_EXTERN
#    endif
/** An open directory: a file descriptor on POSIX systems. */
typedef int frd_os_fd;
#    define FRD_INVALID_FD (-1)
#endif

/* FRD_VERSION_HEX (MAJOR * 10000 + MINOR * 100 + PATCH) and FRD_VERSION_STRING, generated
 * from the CMake project version. */
#include "frd_version.h"

/**
 * Returns the version of the library linked at run time, in the form of FRD_VERSION_HEX.
 * Thread-safe.
 */
FRD_EXTERN unsigned frd_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Errors                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/*
 * Each code is the negated errno value where the C library defines that errno, and a fixed
 * value in the -4000 range elsewhere (Windows has no ELOOP, for instance). frd's own codes
 * sit below -5000 so they never collide with errno or with libuv's codes.
 */
#if defined(ELOOP)
#    define FRD__ELOOP (-ELOOP)
#else
#    define FRD__ELOOP (-4001)
#endif
#if defined(ENOTSUP)
#    define FRD__ENOTSUP (-ENOTSUP)
#else
#    define FRD__ENOTSUP (-4002)
#endif
#if defined(ESTALE)
#    define FRD__ESTALE (-ESTALE)
#else
#    define FRD__ESTALE (-4003)
#endif
#if defined(ECANCELED)
#    define FRD__ECANCELED (-ECANCELED)
#else
#    define FRD__ECANCELED (-4004)
#endif
#if defined(EOVERFLOW)
#    define FRD__EOVERFLOW (-EOVERFLOW)
#else
#    define FRD__EOVERFLOW (-4005)
#endif
#if defined(ETIMEDOUT)
#    define FRD__ETIMEDOUT (-ETIMEDOUT)
#else
#    define FRD__ETIMEDOUT (-4006)
#endif

/**
 * Every error code: XX(name, value, message). The list only grows; values never change.
 * It generates enum frd_errno, frd_strerror() and frd_err_name().
 */
#define FRD_ERRNO_MAP(XX)                                                  \
    XX(EPERM, -EPERM, "operation not permitted")                           \
    XX(ENOENT, -ENOENT, "no such file or directory")                       \
    XX(EINTR, -EINTR, "interrupted system call")                           \
    XX(EIO, -EIO, "i/o error")                                             \
    XX(EBADF, -EBADF, "bad file descriptor")                               \
    XX(EAGAIN, -EAGAIN, "resource temporarily unavailable")                \
    XX(ENOMEM, -ENOMEM, "not enough memory")                               \
    XX(EACCES, -EACCES, "permission denied")                               \
    XX(EBUSY, -EBUSY, "resource busy or locked")                           \
    XX(EEXIST, -EEXIST, "file already exists")                             \
    XX(EXDEV, -EXDEV, "cross-device link not permitted")                   \
    XX(ENODEV, -ENODEV, "no such device")                                  \
    XX(ENOTDIR, -ENOTDIR, "not a directory")                               \
    XX(EISDIR, -EISDIR, "is a directory")                                  \
    XX(EINVAL, -EINVAL, "invalid argument")                                \
    XX(ENFILE, -ENFILE, "file table overflow")                             \
    XX(EMFILE, -EMFILE, "too many open files")                             \
    XX(ENOSPC, -ENOSPC, "no space left on device")                         \
    XX(EROFS, -EROFS, "read-only file system")                             \
    XX(ERANGE, -ERANGE, "result too large")                                \
    XX(ENAMETOOLONG, -ENAMETOOLONG, "name too long")                       \
    XX(ENOSYS, -ENOSYS, "function not implemented")                        \
    XX(ELOOP, FRD__ELOOP, "too many symbolic links encountered")           \
    XX(ENOTSUP, FRD__ENOTSUP, "operation not supported")                   \
    XX(ESTALE, FRD__ESTALE, "stale file handle")                           \
    XX(ECANCELED, FRD__ECANCELED, "operation canceled")                    \
    XX(EOVERFLOW, FRD__EOVERFLOW, "value too large for defined data type") \
    XX(ETIMEDOUT, FRD__ETIMEDOUT, "connection timed out")                  \
    XX(EUNKNOWN, -5000, "unknown error")                                   \
    XX(EMALFORMED, -5001, "kernel buffer malformed")                       \
    XX(ECHANGED, -5002, "file changed identity while in use")              \
    XX(ESTOPPED, -5003, "stopped by the caller")

/** Error codes: every function returns 0 (or a count) on success and one of these on failure. */
enum frd_errno {
#define FRD__ERRNO_ENUM(name, value, message) FRD_##name = (value),
    FRD_ERRNO_MAP(FRD__ERRNO_ENUM)
#undef FRD__ERRNO_ENUM
};

/**
 * Describes an error code in words.
 * @param code a negative code from enum frd_errno, or any negative errno value.
 * @return a static string (never NULL); "unknown error" for a code frd does not know.
 * Thread-safe.
 */
FRD_EXTERN const char *frd_strerror(int code);

/**
 * Names an error code.
 * @param code a negative code.
 * @return a static string such as "ENOENT" (never NULL); "EUNKNOWN" for an unknown code.
 * Thread-safe.
 */
FRD_EXTERN const char *frd_err_name(int code);

/* ---------------------------------------------------------------------------------------- */
/* Allocator                                                                                */
/* ---------------------------------------------------------------------------------------- */

/** malloc(3)-like function. */
typedef void *frd_malloc_fn(size_t size);
/** realloc(3)-like function. */
typedef void *frd_realloc_fn(void *ptr, size_t size);
/** free(3)-like function. */
typedef void frd_free_fn(void *ptr);

/**
 * Replaces the functions frd allocates with (by default malloc, realloc and free).
 * Call it before any other frd function, while no frd object exists: memory is always
 * released by the functions that allocated it only if they are not swapped underneath it.
 * @return 0, or FRD_EINVAL if any pointer is NULL.
 * Not thread-safe: call it once, at start-up.
 */
FRD_EXTERN int frd_replace_allocator(frd_malloc_fn *malloc_fn, frd_realloc_fn *realloc_fn,
                                     frd_free_fn *free_fn);

/* ---------------------------------------------------------------------------------------- */
/* Entries                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** The type of an entry, as the listing saw it. A symlink is a link; it is never followed. */
enum frd_type {
    FRD_TYPE_UNKNOWN = 0, /**< the listing could not tell (see frd_entry.error) */
    FRD_TYPE_REG,         /**< regular file */
    FRD_TYPE_DIR,         /**< directory */
    FRD_TYPE_LNK,         /**< symbolic link (on Windows: symlink or junction) */
    FRD_TYPE_FIFO,        /**< named pipe */
    FRD_TYPE_SOCK,        /**< socket */
    FRD_TYPE_CHR,         /**< character device */
    FRD_TYPE_BLK,         /**< block device */
};

/** Which fields of an entry hold data. Zero in a field whose bit is clear means unknown. */
enum frd_field {
    FRD_FIELD_TYPE = 1u << 0,        /**< type */
    FRD_FIELD_SIZE = 1u << 1,        /**< size */
    FRD_FIELD_MTIME = 1u << 2,       /**< mtime_ns */
    FRD_FIELD_CTIME = 1u << 3,       /**< ctime_ns */
    FRD_FIELD_FILE_ID = 1u << 4,     /**< file_id */
    FRD_FIELD_DEV = 1u << 5,         /**< dev */
    FRD_FIELD_NLINK = 1u << 6,       /**< nlink */
    FRD_FIELD_MODE = 1u << 7,        /**< mode */
    FRD_FIELD_ALLOC_SIZE = 1u << 8,  /**< alloc_size */
    FRD_FIELD_UID = 1u << 9,         /**< uid */
    FRD_FIELD_GID = 1u << 10,        /**< gid */
    FRD_FIELD_ATIME = 1u << 11,      /**< atime_ns */
    FRD_FIELD_BTIME = 1u << 12,      /**< btime_ns (birth time, where the file system keeps it) */
    FRD_FIELD_RDEV = 1u << 13,       /**< rdev */
    FRD_FIELD_ATTRIBUTES = 1u << 14, /**< attributes and attributes_known */
    /** Every field: what a full listing asks for by default. */
    FRD_FIELDS_ALL = (1u << 15) - 1,
};

/**
 * File attribute bits (struct frd_entry.attributes), as the kernel reports them: statx
 * stx_attributes on Linux, file attributes on Windows, st_flags on macOS.
 */
enum frd_attr {
    FRD_ATTR_COMPRESSED = 1u << 0, /**< compressed by the file system */
    FRD_ATTR_IMMUTABLE = 1u << 1,  /**< cannot be changed, renamed or linked (chattr +i) */
    FRD_ATTR_APPEND = 1u << 2,     /**< can only be appended to (chattr +a) */
    FRD_ATTR_NODUMP = 1u << 3,     /**< not to be backed up by dump (chattr +d) */
    FRD_ATTR_ENCRYPTED = 1u << 4,  /**< encrypted by the file system */
    FRD_ATTR_AUTOMOUNT = 1u << 5,  /**< an automount trigger */
    FRD_ATTR_MOUNT_ROOT = 1u << 6, /**< the root of a mount */
    FRD_ATTR_VERITY = 1u << 7,     /**< protected by fs-verity */
    FRD_ATTR_DAX = 1u << 8,        /**< file data accessed directly (DAX) */
};

/**
 * One directory entry with its metadata, read in one pass.
 *
 * `fields` says which fields hold data; a field whose bit is clear is zero. What each
 * platform fills in a listing that asks for every field (frd_lister_set_fields()):
 *   - Linux (statx): every field. btime only where the file system keeps it (stx_mask has
 *     STATX_BTIME), attributes as stx_attributes_mask says they are known. When statx is
 *     missing or forbidden (fstatat fallback): every field but btime and attributes.
 *   - Other Unix systems (readdir + fstatat): every field but btime and attributes.
 *   - macOS (getattrlistbulk): every field; btime is the creation time, attributes come
 *     from st_flags (immutable, append, compressed, nodump) and, for directories, the
 *     mount-point status; file_id only on volumes whose ids persist. (Written, not yet
 *     compiled on a Mac: see platform/darwin.c.)
 *   - Windows: type, size, alloc_size, mtime, ctime, atime, btime (CreationTime), file_id
 *     (where the directory class carries one that fits 64 bits), dev (the volume serial
 *     number), a mode synthesized from the type and the read-only attribute, and attributes
 *     (compressed, encrypted). No uid, gid or rdev; nlink only from a walk's stat of a root.
 * Extended attributes are not fields of the listing: a walk with FRD_WALK_XATTRS gives them
 * in its visits (frd_walk_entry.xattrs): Linux, every namespace the caller may read (user,
 * trusted as root, security with capabilities, system.posix_acl_* ACLs), none on a file
 * system without them; other Unix systems, macOS and Windows: none yet (no error).
 * A names-only listing (or one that asks for FRD_FIELD_TYPE alone) fills name and type.
 * `file_id` has one meaning whatever else is asked: the inode number a stat gives (st_ino),
 * so ids kept from a walk with one mask compare with those of a walk with another. When only
 * type and file id are wanted, Linux, macOS and the portable backend answer from the
 * directory record without a stat where it gives the type and its d_ino is that number: for
 * every entry but a directory, which is stat'ed (on a mount point, d_ino is the inode of the
 * directory it covers; the stat gives the mounted root's). Two cases escape: a file
 * bind-mounted over another file (mount --bind on a file), whose record's d_ino is the
 * covered file's, and overlayfs mounts whose records do not carry st_ino (layers on several
 * file systems without xino); ask for another field too (say FRD_FIELD_DEV) to have every
 * entry stat'ed.
 */
struct frd_entry {
    /** The name, NUL-terminated, bytes exactly as the kernel gave them. Owned by the list:
     *  valid until the list is next appended to, cleared or freed. */
    const char *name;
    size_t name_len;     /**< length of name in bytes, without the NUL */
    uint64_t size;       /**< bytes (st_size) */
    uint64_t alloc_size; /**< bytes allocated on disk (st_blocks * 512) */
    int64_t mtime_ns;    /**< modification time, ns since the Unix epoch */
    int64_t ctime_ns;    /**< status change time, ns since the Unix epoch */
    /** inode number, st_ino, whatever other fields are asked (Windows: the file id if it
     *  fits 64 bits, else 0; see above for a file bind-mounted over another) */
    uint64_t file_id;
    uint64_t dev;   /**< device of the file system holding the entry (st_dev) */
    uint32_t nlink; /**< hard link count */
    /** The full mode: the file type bits (mode & 0170000, with the traditional Unix values:
     *  0100000 regular, 0040000 directory, 0120000 symlink, 0010000 fifo, 0140000 socket,
     *  0020000 character device, 0060000 block device, on every platform) and the
     *  permission bits (mode & 07777). Windows synthesizes it: 0444 or 0666 by the
     *  read-only attribute, plus 0111 for directories. */
    uint32_t mode;
    enum frd_type type; /**< type of the entry itself (links are not followed) */
    unsigned fields;    /**< enum frd_field bits: which fields above hold data */
    uint32_t uid;       /**< owner's user id */
    uint32_t gid;       /**< owner's group id */
    int64_t atime_ns;   /**< last access time, ns since the Unix epoch */
    int64_t btime_ns;   /**< birth (creation) time, ns since the Unix epoch */
    /** device number of a character or block device (Unix st_rdev; 0 for other types) */
    uint64_t rdev;
    uint32_t attributes; /**< enum frd_attr bits that are set */
    /** enum frd_attr bits the file system reports at all: a bit clear here means the
     *  attribute is unknown, not unset. */
    uint32_t attributes_known;
    /** 0, or the negative code of the stat that failed for this entry (say FRD_EACCES in a
     *  directory that can be read but not searched); then only name and type are known. */
    int error;
};

/**
 * Names a type with the letter GNU find's `%y` prints: f d l p s c b, and U for unknown.
 * @return that letter. Thread-safe.
 */
FRD_EXTERN char frd_type_letter(enum frd_type type);

/**
 * The type a POSIX st_mode says (its S_IFMT bits, whose values every Unix shares: S_IFREG
 * 0100000, S_IFDIR 0040000, S_IFLNK 0120000, ...), for a program that stats a file itself
 * (fstatat, statx's stx_mode) and compares with frd_entry.type. The permission bits are
 * ignored. @return the type; FRD_TYPE_UNKNOWN for a file type it does not know. Thread-safe.
 */
FRD_EXTERN enum frd_type frd_type_from_mode(unsigned mode);

/**
 * Compares two entries by name in byte order (memcmp, a shorter prefix first), as
 * `LC_ALL=C ls` sorts. @return <0, 0 or >0. Thread-safe.
 */
FRD_EXTERN int frd_entry_cmp_name(const struct frd_entry *a, const struct frd_entry *b);

/**
 * Says whether two entries are the same: the same name and equal type, size, mtime, ctime,
 * btime, file id, device, link count, mode, uid, gid, rdev, attributes (and which are
 * known), fields and error. Two fields are left out on purpose: alloc_size, because file
 * systems with delayed allocation change it after a write without touching ctime, and
 * atime, because reading a file changes it; a change detector must not report a file as
 * changed when it was not.
 * @return true if every compared field is equal. Thread-safe.
 */
FRD_EXTERN bool frd_entry_same(const struct frd_entry *a, const struct frd_entry *b);

/* ---------------------------------------------------------------------------------------- */
/* Entry lists                                                                              */
/* ---------------------------------------------------------------------------------------- */

/** A growable array of entries plus one arena holding their names. Opaque. */
struct frd_list;

/**
 * Makes an empty list.
 * @param out receives the list.
 * @return 0, FRD_EINVAL if out is NULL, or FRD_ENOMEM.
 */
FRD_EXTERN int frd_list_new(struct frd_list **out);

/** Frees a list and every name it holds. NULL is allowed. */
FRD_EXTERN void frd_list_free(struct frd_list *list);

/**
 * Empties a list but keeps its memory, so the next listing allocates nothing if it fits.
 * Names of the entries it held become invalid.
 */
FRD_EXTERN void frd_list_clear(struct frd_list *list);

/** @return the number of entries in the list. */
FRD_EXTERN size_t frd_list_count(const struct frd_list *list);

/**
 * @return the entries, an array of frd_list_count() elements, valid until the list is next
 * appended to, cleared or freed. NULL when the list is empty.
 */
FRD_EXTERN const struct frd_entry *frd_list_entries(const struct frd_list *list);

/**
 * Sorts a list by name in byte order (frd_entry_cmp_name). Stable: entries with equal
 * names (possible when several listings were appended) keep their order. O(n log n), in
 * place: it sorts 16-byte records (kept in the list for its next sort, so a reused list
 * allocates only when it outgrows them) and then moves each entry once; with no memory
 * for the records it sorts the entries themselves, to the same order.
 */
FRD_EXTERN void frd_list_sort(struct frd_list *list);

/**
 * Appends a copy of an entry (its name is copied into the list's arena).
 * @return 0, FRD_EINVAL for a NULL argument, or FRD_ENOMEM (the list is unchanged).
 */
FRD_EXTERN int frd_list_append(struct frd_list *list, const struct frd_entry *entry);

/* ---------------------------------------------------------------------------------------- */
/* Listers                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** Lister options, a bit set. */
enum frd_lister_flag {
    /** Names and types only: no stat per entry (only an entry whose type the directory
     *  record does not give costs one). */
    FRD_LIST_NAMES_ONLY = 1u << 0,
    /** List from the first entry, wherever the descriptor's position stands. Without it, a
     *  descriptor is listed from where an earlier read left it. */
    FRD_LIST_REWIND = 1u << 1,
};

/** Open options for frd_lister_list_at(). */
enum frd_open_flag {
    /** Fail with FRD_ELOOP if the name is a symlink, so a directory swapped for a link
     *  never leads the listing elsewhere. */
    FRD_OPEN_NOFOLLOW = 1u << 0,
};

/**
 * A lister: the kernel buffer (64 KiB) and options for listing directories. Opaque. Reuse
 * one per thread: a listing through a reused lister into a reused list allocates nothing
 * once the list is large enough.
 */
struct frd_lister;

/** The kind of call that failed (struct frd_list_error.call, struct frd_walk_error.call), the
 *  same on every platform. */
enum frd_op {
    FRD_OP_OTHER = 0,    /**< none of the below */
    FRD_OP_OPEN = 1,     /**< opening a directory (open, openat, fdopendir, NtOpenFile) */
    FRD_OP_READ_DIR = 2, /**< reading a directory (getdents64, readdir, getattrlistbulk, ...) */
    FRD_OP_STAT = 3,     /**< stat of an entry or a root (statx, fstatat, ...) */
    FRD_OP_READLINK = 4, /**< reading a symlink */
    FRD_OP_LOOP = 5,     /**< a file system loop found (code FRD_ELOOP) */
    FRD_OP_ALLOC = 6,    /**< the walk ran out of memory for this part of the tree */
    FRD_OP_XATTR = 7,    /**< reading an entry's extended attributes (FRD_WALK_XATTRS) */
};

/**
 * Describes why the last listing failed.
 */
struct frd_list_error {
    int code;         /**< the negative code the listing returned, 0 if it succeeded */
    const char *op;   /**< the call that failed: "open", "getdents64", "readdir", ... */
    const char *name; /**< the directory's path or name as given ("" for a bare descriptor) */
    /** The kind of call that failed, set by the backend: FRD_OP_OPEN (opening the directory,
     *  or duplicating its descriptor), FRD_OP_READ_DIR (reading it), FRD_OP_STAT (a backend
     *  that stats entries or the directory while listing), FRD_OP_ALLOC (no memory to append
     *  an entry); FRD_OP_OTHER if the listing succeeded. Compare this rather than `op`, which
     *  names the platform's own call. */
    enum frd_op call;
};

/**
 * Makes a lister.
 * @param out receives the lister.
 * @param flags enum frd_lister_flag bits.
 * @return 0, FRD_EINVAL (NULL out, unknown flag), or FRD_ENOMEM.
 */
FRD_EXTERN int frd_lister_new(struct frd_lister **out, unsigned flags);

/** Frees a lister. NULL is allowed. */
FRD_EXTERN void frd_lister_free(struct frd_lister *lister);

/** Changes a lister's flags (enum frd_lister_flag). @return 0 or FRD_EINVAL. */
FRD_EXTERN int frd_lister_set_flags(struct frd_lister *lister, unsigned flags);

/** @return a lister's flags. */
FRD_EXTERN unsigned frd_lister_flags(const struct frd_lister *lister);

/**
 * Sets which fields the lister's listings fill (enum frd_field bits; FRD_FIELDS_ALL by
 * default). Name and type are always filled. The backend asks the kernel for no more than
 * `wanted` needs (Linux: the smallest statx mask; macOS: the getattrlistbulk attributes;
 * Windows: the file-id classes and the volume serial only when wanted), and skips the
 * per-entry stat entirely when the directory records answer (FRD_FIELD_TYPE and
 * FRD_FIELD_FILE_ID on Linux, other Unix systems and macOS, where the record has a type).
 * FRD_LIST_NAMES_ONLY is the same as asking for FRD_FIELD_TYPE alone. An entry's `fields`
 * says what was actually filled, which may be more than wanted (what came for free) or less
 * (what the platform cannot tell). Not thread-safe on a lister in use by another thread.
 * @return 0, or FRD_EINVAL for a NULL lister or an unknown bit.
 */
FRD_EXTERN int frd_lister_set_fields(struct frd_lister *lister, unsigned wanted);

/** @return the fields a lister's listings fill (enum frd_field bits). */
FRD_EXTERN unsigned frd_lister_fields(const struct frd_lister *lister);

/**
 * Appends the entries of the directory at `path` to `list` ("." and ".." never appear).
 * Order is the file system's. A symlink among the entries is reported as a link and never
 * followed; `path` itself is followed if it is a symlink. An entry removed between the read
 * and its stat is left out; an entry whose stat fails otherwise is kept with `error` set.
 * @return the number of entries appended (>= 0), or a negative code: FRD_ENOENT,
 * FRD_ENOTDIR, FRD_EACCES, FRD_EMFILE, FRD_ENOMEM, FRD_EMALFORMED, ... On failure the
 * entries read before it stay in the list, and frd_lister_error() says what failed.
 */
FRD_EXTERN int frd_lister_list_path(struct frd_lister *lister, struct frd_list *list,
                                    const char *path);

/**
 * Appends the entries of the directory `name` relative to the open directory `parent`
 * (openat; FRD_INVALID_FD: the current directory, or `name` is absolute) to `list`, with
 * the same rules for entries as frd_lister_list_path(). `open_flags` are enum frd_open_flag
 * bits. The directory is opened and closed within the call; `parent` stays the caller's.
 * @return the number of entries appended (>= 0), or a negative code:
 *   - FRD_EINVAL: a NULL lister, list or name, or an unknown open flag (nothing is recorded
 *     for frd_lister_error());
 *   - from opening `name` (frd_lister_error().op is "open"): FRD_ENOENT, FRD_ENOTDIR,
 *     FRD_ELOOP (a symlink under FRD_OPEN_NOFOLLOW, or a loop of links), FRD_EACCES,
 *     FRD_EMFILE, FRD_ENFILE, FRD_ENAMETOOLONG, FRD_ENOMEM, or another negative code the OS gives;
 *   - from reading it: what frd_lister_list_fd() returns.
 * On a failure after the open, the entries read before it stay in the list.
 */
FRD_EXTERN int frd_lister_list_at(struct frd_lister *lister, struct frd_list *list,
                                  frd_os_fd parent, const char *name, unsigned open_flags);

/**
 * Appends the entries of a directory the caller has open to `list`, with the same rules
 * for entries as frd_lister_list_path(). The descriptor stays the caller's: it is neither
 * closed nor duplicated. Without FRD_LIST_REWIND it is read from its current position, and
 * it is left at the end of the directory.
 * @param name used only in frd_lister_error(); may be NULL.
 * @return the number of entries appended (>= 0), or a negative code:
 *   - FRD_EINVAL: a NULL lister or list (nothing is recorded for frd_lister_error());
 *   - FRD_ENOMEM: the list could not grow (op "append");
 *   - FRD_EMALFORMED: the kernel's buffer held a record that does not decode;
 *   - FRD_EOVERFLOW: more than INT32_MAX entries;
 *   - from the OS's read of the directory (op names the call: "getdents64", "readdir",
 *     "lseek", "getattrlistbulk", "NtQueryDirectoryFile", ...): FRD_EBADF (not an open
 *     descriptor), FRD_ENOTDIR (not a directory), FRD_ENOENT (the directory was removed),
 *     FRD_EACCES, FRD_EIO, or another negative code the OS gives.
 * On failure the entries read before it stay in the list, and frd_lister_error() says
 * what failed. A failed stat of one entry is no failure of the listing: that entry is kept
 * with its `error` set.
 */
FRD_EXTERN int frd_lister_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                                  const char *name);

/**
 * Starts a listing in batches of a directory the caller has open: frd_lister_batch_read()
 * then hands out its entries a kernel buffer at a time (a continuation, as getdents does),
 * so a caller that does not need the whole directory at once never holds it; memory is
 * bounded by one batch, not by the directory. The lister keeps the cursor: one listing in
 * batches per lister at a time (beginning another ends the one open). Other listings
 * through the same lister (frd_lister_list_fd() ...) may run in between, on other
 * descriptors. The descriptor stays the caller's and must stay open until
 * frd_lister_batch_end(); it is read from its current position, or from the start with
 * FRD_LIST_REWIND (the lister's flags and fields as they are at the first read apply).
 * @param name used only in frd_lister_error(); may be NULL; copied.
 * @return 0; FRD_EINVAL for a NULL lister or FRD_INVALID_FD (nothing recorded for
 * frd_lister_error()); FRD_ENOMEM (no memory to copy the name; then no listing is open).
 * Not thread-safe on one lister.
 */
FRD_EXTERN int frd_lister_batch_begin(struct frd_lister *lister, frd_os_fd fd, const char *name);

/**
 * Like frd_lister_batch_begin(), on the directory `name` relative to the open directory
 * `parent` (FRD_INVALID_FD: the current directory, or `name` is absolute), which the lister
 * opens itself (openat; `open_flags` are enum frd_open_flag bits) and closes at
 * frd_lister_batch_end() or frd_lister_free(). So a program reads a directory in batches
 * with no descriptor of its own.
 * @return 0; FRD_EINVAL for a NULL lister or name or an unknown open flag (nothing
 * recorded); or the open's failure as frd_lister_list_at() returns it (FRD_ENOENT,
 * FRD_ENOTDIR, FRD_ELOOP, FRD_EACCES, FRD_EMFILE, ...), with frd_lister_error().op "open".
 * Not thread-safe on one lister.
 */
FRD_EXTERN int frd_lister_batch_open(struct frd_lister *lister, frd_os_fd parent, const char *name,
                                     unsigned open_flags);

/**
 * Appends the next batch of the listing begun by frd_lister_batch_begin() (or
 * frd_lister_batch_open()) to `list`, with
 * the same rules for entries as frd_lister_list_path() (stat'ed with the lister's fields;
 * an entry that vanished before its stat is left out; a failed stat keeps the entry with
 * `error` set). A batch is what one kernel buffer held (64 KiB of records on Linux, about
 * 1,000 entries on other Unix systems, one FILE_*_DIR_INFO buffer on Windows; on macOS the
 * whole directory, not yet split). Clear the list between batches to keep memory bounded:
 * a cleared list that held a batch allocates nothing for the next one of the same size.
 * Every entry of the directory comes in exactly one batch (given no concurrent change to
 * it; entries added or removed meanwhile may or may not appear, as with readdir).
 * @return the number of entries appended (> 0), 0 at the end of the directory (and on every
 * call after the end or after a failure), or a negative code:
 *   - FRD_EINVAL: a NULL lister or list, or no listing begun (nothing recorded);
 *   - what frd_lister_list_fd() returns for a failed read (FRD_ENOMEM, FRD_EMALFORMED,
 *     FRD_EBADF, FRD_ENOTDIR, FRD_ENOENT, FRD_EACCES, FRD_EIO, ...), with
 *     frd_lister_error() saying what failed and naming the directory as given to
 *     frd_lister_batch_begin(). The entries appended before the failure stay in the list;
 *     the listing is then over (later calls return 0).
 * Not thread-safe on one lister; successive batches may be read from different threads if
 * the caller orders the calls.
 */
FRD_EXTERN int frd_lister_batch_read(struct frd_lister *lister, struct frd_list *list);

/**
 * Ends a listing in batches (before or after its end): releases what the lister kept for
 * it. A descriptor given to frd_lister_batch_begin() is the caller's, not closed; one
 * frd_lister_batch_open() opened is closed. NULL, or a lister with no listing begun,
 * is allowed (nothing happens). frd_lister_free() ends an open listing too.
 */
FRD_EXTERN void frd_lister_batch_end(struct frd_lister *lister);

/**
 * Says what made the lister's last listing fail. The strings are owned by the lister and
 * valid until its next listing.
 */
FRD_EXTERN struct frd_list_error frd_lister_error(const struct frd_lister *lister);

/**
 * The one-call convenience: lists the directory at `path` into `list` (which it clears
 * first) and sorts it by name in byte order, as scandir() with a byte-order comparison
 * would. It makes and frees a lister for the call; use a lister to list many directories.
 * @param flags enum frd_lister_flag bits (FRD_LIST_NAMES_ONLY).
 * @return the number of entries, or a negative code as frd_lister_list_path() returns.
 */
FRD_EXTERN int frd_read_dir(const char *path, unsigned flags, struct frd_list *list);

/* ---------------------------------------------------------------------------------------- */
/* The walker                                                                               */
/* ---------------------------------------------------------------------------------------- */

/** What a visit callback (or an error hook) tells the walker to do next. */
enum frd_action {
    FRD_ACTION_CONTINUE = 0, /**< go on (descend into this entry if it is a directory) */
    FRD_ACTION_PRUNE = 1,    /**< do not descend into this directory; go on elsewhere */
    FRD_ACTION_STOP = 2,     /**< end the walk: no callback starts after this one returns */
};

/** Which symlinks the walker follows (find's -P, -H and -L). */
enum frd_follow {
    FRD_FOLLOW_NEVER = 0, /**< report links as links (find -P) */
    FRD_FOLLOW_ROOTS = 1, /**< follow a root given as a link, no other (find -H) */
    /** Follow every link (find -L); loops are reported as FRD_ELOOP. So is a link whose
     *  path would cross more links than the OS resolves in one path (Linux: 40, those of
     *  the root's own path and of each link's target included), which the walk, reaching
     *  each directory by descriptor, would not meet itself: as find -L and du -L meet it
     *  (the OS is asked about that path), with an error of op "stat", the link not visited. */
    FRD_FOLLOW_ALL = 2,
};

/** Walk options, a bit set. */
enum frd_walk_flag {
    /** Names and types only: no stat per entry. The same as opts.fields = FRD_FIELD_TYPE
     *  (and it wins over opts.fields). A subdirectory's identity is still stat'ed where a
     *  loop is possible (FRD_FOLLOW_ALL, or a mount below another mount of its device), and
     *  for a process that may lack search permission (not root) the first subdirectory of
     *  each directory, to report a directory that cannot be searched as find does. */
    FRD_WALK_NAMES_ONLY = 1u << 0,
    FRD_WALK_ONE_FILE_SYSTEM = 1u << 1, /**< do not descend into other file systems (-xdev) */
    /** Visit a hard-linked file once (nlink > 1 only, on volumes with strong ids). Needs
     *  metadata: with it, FRD_WALK_NAMES_ONLY is ignored. */
    FRD_WALK_UNIQUE_FILES = 1u << 2,
    /** Visit a directory once (bind mounts, links), on volumes with strong ids. Needs
     *  metadata: with it, FRD_WALK_NAMES_ONLY is ignored. */
    FRD_WALK_UNIQUE_DIRS = 1u << 3,
    FRD_WALK_SKIP_HIDDEN = 1u << 4, /**< skip entries whose name starts with '.' */
    /** Callbacks on one thread, depth-first, each directory's entries by name (or as the
     *  directory lists them: FRD_WALK_LISTING_ORDER). */
    FRD_WALK_ORDERED = 1u << 5,
    /** The children hook (opts.on_children) takes a directory in parts: in concurrent mode a
     *  big directory's listing goes through the hook batch by batch, each batch before any
     *  of its entries is stat'ed, so memory stays bounded by the batches in flight and the
     *  survivors' stats and visits spread over the workers (frd_walk_children_part() tells
     *  the hook which part it has). For a hook that decides entry by entry (a filter); one
     *  that needs the whole directory (to sort it, or to count it) leaves the flag out.
     *  Ignored in ordered mode (the hook gets whole listings there) and without the hook. */
    FRD_WALK_CHILDREN_PARTS = 1u << 6,
    /** The callbacks make no call through parent_fd: every callback (visit, post-order,
     *  children hook, both modes) then gets FRD_INVALID_FD there, and the walk neither holds
     *  nor reopens a directory for them. In ordered mode each directory is then closed by
     *  the thread that listed it, as soon as its subdirectories are opened, instead of being
     *  held until the consumer leaves it: on ext4, closing a large directory frees the
     *  kernel's cached listing of it, work that otherwise falls on the consumer's thread
     *  (about a fifth of an ordered names-only walk of /usr). For callbacks that use paths
     *  and the entries' metadata only. */
    FRD_WALK_NO_PARENT_FD = 1u << 7,
    /** With FRD_WALK_ORDERED: each directory's entries in the order the directory lists
     *  them (as fts, find and du meet them without a comparison function), not by name; a
     *  children hook sees them in that order and may sort them its own way. Each directory
     *  is then read whole before its entries are resolved (by name, a large one is sorted
     *  and resolved in bounded chunks), so a directory of n entries holds n whole entries
     *  in memory. The order is the file system's: ext4's follows name hashes, tmpfs lists
     *  the newest entry first. Ignored without FRD_WALK_ORDERED. */
    FRD_WALK_LISTING_ORDER = 1u << 8,
    /** The earlier behaviour for a root that cannot be walked (missing, empty,
     *  unreadable): with an error hook, it is reported to the hook only and frd_walk()
     *  returns 0 if the hook said go on. Without this flag such a root makes the walk
     *  return its code whatever the hook said (after walking the other roots), so a backup
     *  of a missing folder does not "succeed" empty. For tools that report roots' errors
     *  themselves (find and du print the message from their hook and set their exit status
     *  there). */
    FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY = 1u << 9,
    /** The visit of a symbolic link (one visited as a link, not followed) carries its
     *  target in frd_walk_entry.link_target, read with readlinkat() on the directory's
     *  descriptor (never by path, a root aside: it is reached by its name), whatever its
     *  length. A target that cannot be read is reported to the error hook (FRD_OP_READLINK)
     *  and the link is visited with link_target NULL (as is a link whose stat failed:
     *  reported once, for that). Costs one call per link, nothing for
     *  other entries; FRD_WALK_NO_PARENT_FD is ignored with it (the walk needs the
     *  descriptors). Windows: not yet (every link's target fails with FRD_ENOTSUP). */
    FRD_WALK_LINK_TARGETS = 1u << 10,
    /** The visit of each entry carries its extended attributes, names and values, in
     *  frd_walk_entry.xattrs (ACLs, system.posix_acl_*, and security.capability included;
     *  a symbolic link's own, never its target's, unless the walk followed it and visits
     *  its target: then the target's), read relative to the directory's
     *  descriptor, never by path (a root aside: it is reached by its name).
     *  Linux: listxattrat()/getxattrat() (6.13+), else the entry opened
     *  O_PATH|O_NOFOLLOW (never opened for I/O, so a FIFO or device never blocks) and read
     *  through /proc/self/fd. One listing of names per entry, a read per value.
     *  A value longer than frd_walk_options.xattr_value_max is flagged too_long, with its
     *  size. A file system without extended attributes (FRD_ENOTSUP) gives none, no error,
     *  and costs nothing more on that device once seen (when entries carry FRD_FIELD_DEV,
     *  as with the default fields). Another failure goes to the error
     *  hook (FRD_OP_XATTR) and the entry is visited without them. An entry whose stat
     *  failed (entry->error set, reported already) is visited without them, not asked
     *  again, so a failure is reported once. FRD_WALK_NO_PARENT_FD is ignored with it.
     *  macOS and Windows: not yet: no extended attributes, no error (frd.h's field table). */
    FRD_WALK_XATTRS = 1u << 11,
    /** Hard-link groups: the visit of each entry that is not a directory and has more than
     *  one link (nlink > 1) says which group of links to one file it belongs to, in
     *  frd_walk_entry.link_group, and the path under which the walk visited the group
     *  first (link_first; NULL in that first visit itself). Groups are keyed by (dev, ino)
     *  on volumes whose ids persist (frd_walk_entry.persistent_ids): a table that grows
     *  with the multiply-linked files visited, not with every path. In ordered mode the
     *  first of a group is the first visited in the walk's order, the same in every run
     *  of an unchanged tree, and groups are numbered 1, 2, ... in that order; in
     *  concurrent mode whichever thread visits the file first makes its group (safely;
     *  numbers are distinct and nonzero but may skip). A group's other links may lie
     *  outside the walked tree: a group of one visited entry is possible. Adds
     *  FRD_FIELD_FILE_ID, FRD_FIELD_DEV and FRD_FIELD_NLINK to the fields; with it,
     *  FRD_WALK_NAMES_ONLY is ignored. With FRD_WALK_UNIQUE_FILES only the first link of
     *  each is visited. */
    FRD_WALK_LINK_GROUPS = 1u << 12,
    /** A pull iterator (frd_walk_iter_open()) yields a record of kind
     *  FRD_WALK_ITER_DIR_DONE for every directory as the post-order hook would be called
     *  for it (after every record below it, with its totals). Ignored by the other walks. */
    FRD_WALK_DIR_DONE_RECORDS = 1u << 13,
};

/** One extended attribute of an entry (FRD_WALK_XATTRS); owned by the walk, valid only
 *  during the visit. */
struct frd_xattr {
    const char *name; /**< NUL-terminated, with its namespace ("user.x", "security.capability") */
    size_t name_len;  /**< bytes in name */
    /** value_len bytes (any bytes; not NUL-terminated); NULL when too_long, and may be NULL
     *  or not for an empty value */
    const void *value;
    size_t value_len; /**< the value's size, also when too_long */
    bool too_long;    /**< longer than xattr_value_max: not read, value is NULL */
};

/** The most worker threads a walk runs callbacks on (frd_walk_options.workers may not be
 *  larger): callbacks' `worker` index is always below it, so an array of this many slots
 *  indexed by it never overflows whatever the options. frd_walk_options_workers() and
 *  frd_walk_workers() give the count of one walk, usually far smaller. */
#define FRD_WALK_MAX_WORKERS 256u

/** One entry as the walker hands it to the visit callback. */
struct frd_walk_entry {
    /** Full path: the root as given, then the names below it joined with '/', on Windows too
     *  (Win32 takes either separator). No '/' follows a root that already ends in a separator
     *  ('/', or on Windows a backslash): the root C:\ gives C:\Windows, the root C:\tmp gives
     *  C:\tmp/a/b. */
    const char *path;
    size_t path_len;               /**< bytes in path */
    const struct frd_entry *entry; /**< name, type and metadata (name and type only in
                                        names-only mode); for a followed link, the target's */
    unsigned depth;                /**< 0 for a root, 1 for its entries, ... */
    /** The open directory holding this entry, for openat()/fstatat()/readlinkat() with
     *  entry->name, never resolving the path again (which fails beyond PATH_MAX and follows
     *  links swapped in meanwhile); FRD_INVALID_FD for a root (reach a root by its name,
     *  which is the path as given). Valid only during the callback; do not close it. Set in
     *  every callback (visit, post-order, children hook) in both modes, also beyond the
     *  descriptor budget: the walk then reopens the directory for the callback, one step
     *  from a descriptor it holds or along the ancestors, with O_NOFOLLOW and an identity
     *  check. FRD_INVALID_FD otherwise only if that directory was removed or replaced since
     *  it was listed. */
    frd_os_fd parent_fd;
    bool is_root;       /**< the entry is one of the roots passed to the walk */
    bool followed_link; /**< reached through a symlink the walker followed */
    /** The volume's file ids persist across mounts (ext4, xfs, btrfs, tmpfs, nfs, ...); false
     *  on vfat, exfat, overlay without xino, fuse and unknown file systems. */
    bool persistent_ids;
    /** Index, in the roots array given to the walk, of the root this entry was reached from
     *  (always 0 for frd_walk()). `path` starts with that root as given, so the path below
     *  it (find's %P) is path + strlen(roots[root_index]), then one '/' if there is one. */
    unsigned root_index;
    /** Index of the thread running this callback, 0..workers-1 (workers as the walk resolved
     *  it, see frd_walk_options.workers): index per-thread buffers with it instead of thread
     *  locals. Two callbacks with the same index never run at once. In ordered mode every
     *  visit and post-order call runs on the consumer, which is index 0. */
    unsigned worker;
    /** The state the caller stored for the directory holding this entry (see dir_state);
     *  NULL for a root, or when none was stored. In the post-order hook: the state of the
     *  directory's parent. */
    void *parent_state;
    /**
     * Per-directory state. In a visit of a directory (NULL for any other entry): a slot,
     * NULL on entry, where the callback may store a pointer of its own. If the visit
     * returns FRD_ACTION_CONTINUE and the walk enters the directory, its entries' visits see
     * that pointer as parent_state and the directory's post-order hook sees it here (read
     * it there, do not replace it). It is released by opts.on_dir_state_free exactly once:
     * after the post-order hook, or at once when the directory is not entered (prune,
     * stop, max_depth, another file system), or when it fails to open or the walk stops.
     * Works in both modes.
     */
    void **dir_state;
    /* Growth (ABI): the walk fills this struct and the caller only reads it, so it grows at
     * its end: a caller built against an older frd.h reads the members it knows. */
    /** With FRD_WALK_LINK_TARGETS, in the visit of a symbolic link: its target,
     *  NUL-terminated, bytes as the kernel gave them, owned by the walk and valid only
     *  during the visit; NULL for any other entry, without the flag, in the other
     *  callbacks, or when the target could not be read (reported to the error hook). */
    const char *link_target;
    size_t link_target_len; /**< bytes in link_target (0 when it is NULL) */
    /** With FRD_WALK_XATTRS, in a visit: the entry's extended attributes, in the order the
     *  file system lists them, owned by the walk and valid only during the visit; NULL with
     *  xattr_count 0 when it has none, without the flag, in the other callbacks, or when
     *  they could not be read (reported to the error hook).
     *  What each platform gives: Linux, every namespace the caller may read (user, trusted
     *  as root, security, system.posix_acl_access/default; none on file systems without
     *  xattrs: vfat, some FUSE, /proc); macOS and Windows: none yet. */
    const struct frd_xattr *xattrs;
    size_t xattr_count; /**< entries in xattrs */
    /** With FRD_WALK_LINK_GROUPS, in the visit of a non-directory with nlink > 1 on a
     *  volume whose ids persist: its hard-link group, nonzero and the same for every link
     *  to one file (0 for any other entry, without the flag, or in the other callbacks). */
    uint64_t link_group;
    /** With link_group: the path under which the walk visited that group first, owned by
     *  the walk and valid until the walk is freed; NULL in that first visit itself. */
    const char *link_first;
    size_t link_first_len; /**< bytes in link_first (0 when it is NULL) */
};

/** Totals of one directory, for the post-order hook. */
struct frd_walk_dir_totals {
    uint64_t entries; /**< entries listed in it (not counting its subdirectories' entries) */
    uint64_t bytes;   /**< sum of the sizes of those entries */
};

/**
 * @return a short English name of an frd_op ("open", "read", "stat", "readlink", "loop",
 * "alloc", "xattr", "other"); static storage, never NULL. Thread-safe.
 */
FRD_EXTERN const char *frd_op_name(enum frd_op op);

/**
 * An error met during a walk.
 *
 * The rule (one channel): every failure reaches the caller exactly once.
 * - With an error hook (opts.on_error), every failure below is passed to it once, and
 *   frd_walk() returns 0 for a walk that ran to its end (or the code the hook said stop
 *   for, FRD_ESTOPPED, FRD_ECANCELED).
 * - Without one, the walk goes on silently after each failure (as find and du go on).
 * - Either way a root that could not be walked is returned too: frd_walk() returns the
 *   first such root's code after walking the others, so a walk of nothing never looks
 *   like a walk of an empty tree (FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY: only without a
 *   hook, as before).
 * The failures: a root that is missing or empty ("", FRD_ENOENT, FRD_OP_STAT, path ""); a
 * root or directory that cannot be opened or read (FRD_OP_OPEN or FRD_OP_READ_DIR; its
 * entries read before a read error are visited; one the visit pruned is not read, so
 * nothing fails, as find reads no pruned directory); a failed stat of an entry (FRD_OP_STAT:
 * reported, then the entry is visited with entry->error set, as data, not as a second
 * report: print errors in the hook only); a loop (FRD_OP_LOOP, FRD_ELOOP, other_path the
 * ancestor it repeats: reported, not visited; every directory is checked, links followed
 * or not). An entry that vanished between the listing and its stat is no failure: it is
 * left out silently, as if the listing had come a moment later; a directory that vanished
 * before it was opened is an FRD_OP_OPEN failure with FRD_ENOENT.
 */
struct frd_walk_error {
    const char *path; /**< the path the error is about (a directory or an entry) */
    /** the platform call that failed, for messages: "open", "getdents64", "statx", ...;
     *  compare `call` instead, which is the same on every platform */
    const char *op;
    int code;       /**< negative code: FRD_EACCES, FRD_ELOOP, FRD_ENOENT, ... */
    unsigned depth; /**< depth of that path */
    /** For a file system loop (code FRD_ELOOP, op "loop"): the path of the ancestor
     *  directory that `path` leads back to, as find names it; NULL otherwise. */
    const char *other_path;
    unsigned worker;  /**< index of the thread running the hook, as frd_walk_entry.worker */
    enum frd_op call; /**< the kind of call that failed */
};

/** Progress figures, cumulative since the walk started. Growth (ABI): the walk fills it,
 *  the struct only grows at its end, so a caller built against an older frd.h reads the
 *  members it knows. */
struct frd_walk_progress {
    uint64_t dirs;        /**< directories listed */
    uint64_t entries;     /**< entries visited */
    uint64_t bytes;       /**< sum of the sizes of entries visited */
    uint64_t errors;      /**< errors reported */
    uint64_t queued_dirs; /**< directories waiting to be listed */
    /** Where the walk is now, for display: the last path the thread making this report
     *  built (a directory it listed, an entry it visited); NUL-terminated, never NULL ("" before
     *  any). In the ordered mode it may be a directory the read-ahead lists ahead of the
     *  visits. Owned by the walk: valid only during the progress call. */
    const char *path;
    size_t path_len; /**< bytes in path */
};

/**
 * Visit callback: called once for every entry, roots included. In the default concurrent
 * mode it runs on the walker's worker threads, several at once, so it must be thread-safe;
 * with FRD_WALK_ORDERED it runs on one thread (the one that called frd_walk()), in order.
 * `we` and everything it points to are valid only during the call. A root's entry->name is
 * the root as given. An entry whose stat failed is visited too, after the error hook, with
 * entry->error set (the error was reported already: see struct frd_walk_error for the one
 * rule); a directory that repeats one of its ancestors (same device and file id, as fts
 * compares: a symlink loop with FRD_FOLLOW_ALL, a bind mount of a directory below itself,
 * a real directory below a followed link that is the link's target) is reported
 * (FRD_OP_LOOP) and not visited, as find does; a dangling link is visited as a link.
 * @return FRD_ACTION_CONTINUE, FRD_ACTION_PRUNE or FRD_ACTION_STOP.
 */
typedef enum frd_action frd_visit_fn(const struct frd_walk_entry *we, void *udata);

/** An entry handed to the names hook (frd_walk_names_fn): its name and type, no more. */
struct frd_walk_name {
    const char *name;  /**< NUL-terminated; valid during the call only */
    uint32_t name_len; /**< bytes before the NUL */
    uint8_t type;      /**< enum frd_type: never FRD_TYPE_DIR nor FRD_TYPE_UNKNOWN */
};

/**
 * What the names hook is handed: entries of one directory, from one read of its listing.
 * An entry's path, as its visit would have it, is dir_path, a '/' unless dir_path ends with
 * one, and its name (frd_walk_children_path() joins them the same way). Valid during the
 * call only. Filled by the library, read by the hook: it may grow at its end.
 */
struct frd_walk_names {
    const char *dir_path;              /**< the directory's path, NUL-terminated */
    size_t dir_path_len;               /**< bytes before the NUL */
    const struct frd_walk_name *names; /**< the entries, in listing order */
    size_t count;                      /**< how many: at least 1 */
    unsigned depth;                    /**< the entries' depth (the directory's plus one) */
    unsigned root_index;               /**< as in struct frd_walk_entry */
    unsigned worker;                   /**< as in struct frd_walk_entry */
    /** The directory, open, as the entries' visits would have it in parent_fd
     *  (FRD_INVALID_FD with FRD_WALK_NO_PARENT_FD); valid during the call only. */
    frd_os_fd parent_fd;
    void *parent_state; /**< as in struct frd_walk_entry: what the directory's visit stored */
};

/**
 * Names hook (opts.on_names): takes, a read of a directory at a time, the entries a walk
 * of names would visit with nothing to tell but their name and type, in one call instead
 * of one visit each, which costs a fraction of the visits' time (a tool that prints or
 * counts names). The walk hands it, in a concurrent walk (not FRD_WALK_ORDERED, nor the
 * pull iterator) whose visits need no field but the type (opts.fields FRD_FIELD_TYPE or
 * FRD_WALK_NAMES_ONLY; no children hook, no ignore rules; none of FRD_WALK_UNIQUE_FILES,
 * FRD_WALK_UNIQUE_DIRS, FRD_WALK_LINK_TARGETS, FRD_WALK_XATTRS, FRD_WALK_LINK_GROUPS and
 * FRD_WALK_SKIP_HIDDEN), the entries at or past min_depth that are
 * not directories, whose type is known and no error (an entry whose stat failed is visited,
 * after the error hook), and that are not links the walk follows (FRD_FOLLOW_ALL). Every other entry is visited as
 * usual, before or after the call (in no set order with it, as visits have none in a
 * concurrent walk); a walk the rules leave no entry for never calls it. Its entries count
 * as visited (progress, totals). Threads: as the visit callback, on the worker that lists
 * the directory, with `worker` as a visit's (never two calls, or a call and a visit, with
 * the same worker at once); not called after a stop. @return FRD_ACTION_CONTINUE, or
 * FRD_ACTION_STOP to end the walk (FRD_ACTION_PRUNE means nothing here: no entry of the call
 * is a directory).
 */
typedef enum frd_action frd_walk_names_fn(const struct frd_walk_names *names, void *udata);

/**
 * Error hook: called once for each failure (see struct frd_walk_error for the rule: missing
 * or empty roots, unreadable directories, failed stats, loops); runs on the same threads as
 * the visit callback. `err` is valid only during the call. @return FRD_ACTION_CONTINUE to go
 * on or FRD_ACTION_STOP to end the walk, which then returns err->code.
 */
typedef enum frd_action frd_walk_error_fn(const struct frd_walk_error *err, void *udata);

/**
 * Post-order hook: called when a directory is finished, after every entry below it has been
 * visited (what du and find -depth need). Not called for a pruned directory, for a directory
 * not descended into (max_depth, one-file-system), or after a stop. A directory visited with
 * FRD_ACTION_CONTINUE that could not be opened or listed is still finished: the hook runs
 * after the error hook has reported it, with zero totals when nothing could be read (find
 * -depth prints an unreadable directory after its error message; du counts its own size).
 * Runs on the same threads as the visit callback; `dir` is valid only during the call.
 *
 * Order (what a roll-up relies on), in both modes and at any worker count: a directory's
 * call starts only after the calls of all its subdirectories have returned, and after
 * every visit below it has returned; whatever those calls wrote (say into their
 * parent_state) is visible to it without a lock of the caller's. Subdirectories of one
 * directory may finish in any order and, in the concurrent mode, at the same time on
 * different workers (an update of the shared parent_state from them needs an atomic or a
 * lock); in the ordered mode every call runs on the consumer, depth-first.
 * `totals` counts the directory's own entries, not those of its subdirectories: a recursive
 * sum is the caller's roll-up through parent_state.
 */
typedef void frd_walk_post_fn(const struct frd_walk_entry *dir,
                              const struct frd_walk_dir_totals *totals, void *udata);

/**
 * Releases a per-directory state (frd_walk_entry.dir_state): called once for every non-NULL
 * state stored, on any of the walk's threads, after the last callback that can see it. It
 * is the one hook that still runs after a stop or a cancel (only to release), until
 * frd_walk() returns or the walk is joined (an async walk: possibly after its done callback,
 * on the loop's thread, before the walk's memory goes); it must not call back into the walk.
 */
typedef void frd_walk_state_free_fn(void *state, void *udata);

/**
 * A directory's listing as the children hook (opts.on_children) sees it: opaque, valid only
 * during the hook, used through the frd_walk_children_*() functions below from the hook's
 * thread only. Positions run 0..frd_walk_children_count()-1 in the current order.
 */
struct frd_walk_children;

/**
 * Children hook, as fts_children() or jwalk's process_read_dir: called once for each
 * directory the walk lists, after the listing and before any of its entries is stat'ed or
 * visited. It may drop entries (never stat'ed, never visited, not counted in the totals),
 * reorder them (the visit order in ordered mode; a preference in concurrent mode) and mark
 * directories not to be entered (they are still visited). The entries hold name and type
 * only: the stat comes afterwards, for the survivors alone, relative to the directory's
 * descriptor (frd_walk_children_fd()), which the hook may also use to read a file in the
 * directory, say an ignore list. Entries hidden by FRD_WALK_SKIP_HIDDEN are not shown.
 *
 * Threads: in concurrent mode it runs on the worker that lists the directory, before the
 * visits of its entries, with `dir->parent_state` and `dir->dir_state` as the post-order
 * hook sees them (the hook may store a state if *dir->dir_state is NULL). In ordered mode it
 * runs on the listing threads ahead of the consumer (several at once, in no set order, with
 * `worker` telling them apart), before the directory itself is visited, so the visits' states do not exist yet: there
 * dir->dir_state is a slot of the hooks' own (NULL on entry) where the hook may store a
 * state, and dir->parent_state is what the hook stored for the parent directory (NULL for
 * a root), so a per-directory stack kept by the hook (ignore rules, excludes) works the
 * same in both modes; the visits do not see these states, nor the hook theirs; each is
 * released once by opts.on_dir_state_free when the walk is done with the directory.
 * Not called after a stop. When a walk has
 * this hook, its listers list names only and the stat is a separate call per survivor.
 * With FRD_WALK_CHILDREN_PARTS (concurrent mode), a big directory comes in several calls,
 * one per batch: see frd_walk_children_part().
 */
typedef void frd_walk_children_fn(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                                  void *udata);

/** @return the number of entries the hook has now (0 for NULL). */
FRD_EXTERN size_t frd_walk_children_count(const struct frd_walk_children *kids);

/**
 * @return the entry at position i (name and type; `fields` says which), valid during the
 * hook; NULL if i is out of range or kids is NULL.
 */
FRD_EXTERN const struct frd_entry *frd_walk_children_entry(const struct frd_walk_children *kids,
                                                           size_t i);

/**
 * Drops the entry at position i: never stat'ed, never visited. Positions do not move until
 * the hook returns (a dropped entry is still counted and shown by the two calls above).
 * @return 0, or FRD_EINVAL for NULL or i out of range.
 */
FRD_EXTERN int frd_walk_children_drop(struct frd_walk_children *kids, size_t i);

/**
 * Marks the entry at position i not to be entered: visited, never listed (no effect on
 * other types). @return 0, or FRD_EINVAL for NULL or i out of range.
 */
FRD_EXTERN int frd_walk_children_skip_descent(struct frd_walk_children *kids, size_t i);

/** Which part of a directory's listing a children hook call has (a bit set). */
enum frd_walk_children_part {
    FRD_CHILDREN_FIRST = 1u << 0, /**< the first call for this directory */
    FRD_CHILDREN_LAST = 1u << 1,  /**< no call for this directory follows */
};

/**
 * Says which part of its directory's listing this call of the children hook has: enum
 * frd_walk_children_part bits. Without FRD_WALK_CHILDREN_PARTS (and in ordered mode) every
 * call has the whole directory: FRD_CHILDREN_FIRST | FRD_CHILDREN_LAST. With it, a
 * directory that fits one batch (most do) is still one call with both bits; a bigger one
 * is a call per batch, the first with FRD_CHILDREN_FIRST, the last with FRD_CHILDREN_LAST,
 * none with both and those between with neither. Each part holds listed entries, except
 * an empty directory's one call (FRD_WALK_SKIP_HIDDEN may still hide all of a part). The calls for one directory come one after another on the worker that lists it,
 * in listing order; entries of the parts already passed may meanwhile be stat'ed and visited
 * on other workers, so the hook stores a state in *dir->dir_state in the first part only
 * (the later parts see it and must not change it). Positions, drops, marks and sorting
 * apply within the call's own part. Call it from the hook only.
 * @return the bits; 0 for NULL.
 */
FRD_EXTERN unsigned frd_walk_children_part(const struct frd_walk_children *kids);

/** Comparison for frd_walk_children_sort(): < 0, 0 or > 0 as a sorts before, with or after b. */
typedef int frd_walk_children_cmp_fn(const struct frd_entry *a, const struct frd_entry *b,
                                     void *arg);

/**
 * Sorts the entries with `cmp` (stable; marks stay with their entries). No allocation.
 * @return 0, or FRD_EINVAL for NULL kids or cmp.
 */
FRD_EXTERN int frd_walk_children_sort(struct frd_walk_children *kids, frd_walk_children_cmp_fn *cmp,
                                      void *arg);

/**
 * Sorts the `count` entries from position `first` with `cmp` (stable; marks stay with their
 * entries; the entries outside the range keep their places), say each batch of a huge
 * directory on its own, as fts sorts each batch it reads. No allocation.
 * @return 0, or FRD_EINVAL for NULL kids or cmp, or a range that runs past
 * frd_walk_children_count().
 */
FRD_EXTERN int frd_walk_children_sort_range(struct frd_walk_children *kids, size_t first,
                                            size_t count, frd_walk_children_cmp_fn *cmp, void *arg);

/**
 * @return the open directory being listed, for openat()/fstatat() relative to it during the
 * hook (the walk's descriptor: do not close it); FRD_INVALID_FD for NULL.
 */
FRD_EXTERN frd_os_fd frd_walk_children_fd(const struct frd_walk_children *kids);

/**
 * The path the entry at position i will have in its visit (the directory's path, a '/'
 * unless that path ends with one, the name), for hooks that match paths. The string is the
 * walk's: valid until the next call of this function with the same kids or the hook's
 * return. Call it from the hook only.
 * @return the NUL-terminated path (its length in *len when len is not NULL); NULL if i is
 * out of range, kids is NULL, or out of memory.
 */
FRD_EXTERN const char *frd_walk_children_path(struct frd_walk_children *kids, size_t i,
                                              size_t *len);

/** Progress hook: called about every progress_interval_ms from one thread at a time. */
typedef void frd_walk_progress_fn(const struct frd_walk_progress *progress, void *udata);

/** Completion callback of an asynchronous walk: runs on the host's libuv loop. */
typedef void frd_walk_done_fn(int result, void *udata);

/**
 * Options of a walk. Initialize with frd_walk_options_init(), then set what you need.
 *
 * Growth (ABI): the struct only grows at its end. frd_walk_options_init() (a macro passing
 * sizeof) sets struct_size to the size the caller was compiled with, and writes no more; the walk copies that many bytes and gives every
 * member added after them its default. So a program built against an older frd.h runs on a
 * newer library unchanged, and options not initialized with frd_walk_options_init()
 * (struct_size 0) are refused with FRD_EINVAL.
 */
struct frd_walk_options {
    /** sizeof(struct frd_walk_options) as the caller's frd.h declares it; set by
     *  frd_walk_options_init(); do not change it. */
    size_t struct_size;
    unsigned flags;         /**< enum frd_walk_flag bits */
    enum frd_follow follow; /**< which symlinks to follow */
    /** worker threads: at most FRD_WALK_MAX_WORKERS (more is FRD_EINVAL); 0 for
     *  uv_available_parallelism(), at most 8 then; fewer when the
     *  descriptor budget B (fd_budget, or half of RLIMIT_NOFILE) is small: at most
     *  (B / 2 - 2) / 2, one at least, so that half of B stays for the directories kept open
     *  for their children (else a deep tree is reopened along its path over and over).
     *  Callbacks' `worker` index is below the count resolved: frd_walk_options_workers()
     *  says it before the walk, frd_walk_workers() for a started walk, and
     *  FRD_WALK_MAX_WORKERS bounds it whatever the options (an array of 8 does not: an
     *  explicit count may be larger).
     *  With 0, a walk that is not FRD_WALK_ORDERED may also start more threads, up to 32
     *  (and an eighth of fd_budget), while its workers sit blocked on the disk (a cold
     *  cache), and park them once they do not; callbacks still see indices below the count
     *  resolved, at most that many at once (FRD_STATS=1 in the environment prints what the
     *  pool did to stderr as the walk ends).
     *  Threads: the walk's have libuv's default stack size (`ulimit -s`, as the main
     *  thread's: callbacks run your code on them). When one cannot be started (a limit of
     *  processes, `ulimit -u`, or of address space, `ulimit -v`, which each stack counts
     *  in), the walk goes on with those that did: the caller's own thread at least
     *  (frd_walk(), frd_walk_roots()), or one (frd_walk_start(), frd_walk_start_async():
     *  else they return FRD_EAGAIN), and callbacks' indices are below the count that runs.
     *  Under an address-space limit threads start only while some room stays free for the
     *  walk's allocations (8 MiB, and 1 MiB per worker the pool may have, 6 ordered). */
    unsigned workers;
    int min_depth;      /**< visit nothing shallower; 0 by default */
    int max_depth;      /**< descend no deeper; -1 (the default) for no limit */
    unsigned fd_budget; /**< open descriptors the walk may hold; 0: from RLIMIT */
    /** NULL: go on silently. A root that could not be walked is returned either way (see
     *  FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY). */
    frd_walk_error_fn *on_error;
    frd_walk_post_fn *on_dir_done;     /**< NULL: no post-order visits */
    frd_walk_progress_fn *on_progress; /**< NULL: no progress reports */
    unsigned progress_interval_ms;     /**< how often on_progress runs; 0 means 1000 */
    /** enum frd_field bits the visits need (FRD_FIELDS_ALL by default; name and type are
     *  always there): the listers ask the kernel for no more (frd_lister_set_fields()).
     *  The walk adds what it needs itself (ids for FRD_WALK_UNIQUE_*), so an entry may hold
     *  more than asked, or less where the platform cannot tell: entry->fields always says
     *  which fields hold data. FRD_WALK_NAMES_ONLY means FRD_FIELD_TYPE. totals.bytes of the
     *  post-order hook sums sizes only when FRD_FIELD_SIZE is among them. */
    unsigned fields;
    /** Releases what visits stored in dir_state; NULL: states are not released (the
     *  caller owns them some other way). */
    frd_walk_state_free_fn *on_dir_state_free;
    /** Filters and orders each directory's listing before any stat; NULL: none (and no
     *  cost: the listing is stat'ed as it is read). */
    frd_walk_children_fn *on_children;
    /** enum frd_field bits the children hook needs in its entries (FRD_FIELD_TYPE by
     *  default: names and types, so what it drops is never stat'ed). Asking for more (say
     *  FRD_FIELD_SIZE, to sort by size) stats the whole listing with those fields before
     *  the hook; the survivors are stat'ed again after it only if the visits need fields
     *  beyond these. 0 means FRD_FIELD_TYPE. Ignored without on_children. */
    unsigned children_fields;
    /** Ignore rules (frd_ignore_new()); NULL: none. Applied where each directory's
     *  children are decided, before any stat and before the children hook: an ignored
     *  entry is neither stat'ed nor visited, an ignored directory is not opened. A rule
     *  file that exists but cannot be read (FRD_EACCES, FRD_EIO, ...) is reported once to
     *  on_error (the file's path, FRD_OP_OPEN, op "open"), and the walk goes on without it,
     *  as git warns and goes on. The
     *  object must outlive the walk; it is not changed by it. */
    const struct frd_ignore *ignore;
    /** FRD_WALK_XATTRS: the longest value read, in bytes; longer ones are flagged too_long
     *  (with their size) and not read. 0 (the default) means 65536, Linux's largest. */
    size_t xattr_value_max;
    /** A pull iterator (frd_walk_iter_open()): the most records the walk buffers ahead of
     *  the consumer, those the consumer holds in its current batch included; workers wait
     *  for room past it (backpressure). 0 (the default) means 16384. Ignored by the other
     *  walks. */
    size_t max_buffered;
    /** The names hook (frd_walk_names_fn), which takes the entries that need nothing but a
     *  name a run at a time; NULL (the default): every entry is visited. Ignored by
     *  ordered walks and by the pull iterator. */
    frd_walk_names_fn *on_names;
};

/**
 * Ignore rules for walks (frd_ignore(3)): what git, fd, ripgrep, restic and borg skip.
 * Opaque. Made with frd_ignore_new(), filled with the frd_ignore_add_*() calls, then given
 * to walks as opts.ignore: from then on it is read-only, and any number of walks, on any
 * threads, may share it until it is freed (after the last of them has returned or been
 * joined). Building it (new and add) is not thread-safe on one object.
 */
struct frd_ignore;

/** What an ignore object reads (frd_ignore_new()'s flags). */
enum frd_ignore_flag {
    /** git's rules (gitignore(5)): a .gitignore in every directory, $GIT_DIR/info/exclude and
     *  the global excludes file (core.excludesFile, else $XDG_CONFIG_HOME/git/ignore, else
     *  ~/.config/git/ignore), core.ignoreCase; only inside a git work tree (a .git at or
     *  above the root, or below it: a nested repository starts afresh with its own rules);
     *  the .git entries themselves are skipped too. */
    FRD_IGNORE_GIT = 1u << 0,
    /** With FRD_IGNORE_GIT: .gitignore files and the global excludes file apply outside a
     *  git work tree too (fd's --no-require-git). */
    FRD_IGNORE_NO_REQUIRE_GIT = 1u << 1,
    /** .ignore files (ripgrep's and fd's), in the same syntax; they take precedence over
     *  every git rule, as ripgrep documents. */
    FRD_IGNORE_DOT_IGNORE = 1u << 2,
    /** A directory holding a CACHEDIR.TAG that begins with the signature of the Cache
     *  Directory Tagging Specification: its contents are skipped (the directory itself is
     *  visited), as tar --exclude-caches-under and restic --exclude-caches do. */
    FRD_IGNORE_CACHEDIR_TAG = 1u << 3,
    /** Match every rule without regard to ASCII case, whatever core.ignoreCase says. */
    FRD_IGNORE_ICASE = 1u << 4,
};

/**
 * Makes an ignore object. @param flags enum frd_ignore_flag bits. With FRD_IGNORE_GIT it
 * reads git's global configuration now (/etc/gitconfig unless GIT_CONFIG_NOSYSTEM is set,
 * $XDG_CONFIG_HOME/git/config, ~/.gitconfig: core.excludesFile, core.ignoreCase) and the
 * global excludes file it names; a repository's own .git/config is read when a walk enters
 * it. An unreadable global excludes file is not an error here: it is left out, and
 * frd_ignore_new() still succeeds.
 * @return 0 with *out set; FRD_EINVAL (NULL out, unknown flag) or FRD_ENOMEM, *out untouched.
 */
FRD_EXTERN int frd_ignore_new(struct frd_ignore **out, unsigned flags);

/** Frees an ignore object no walk uses any more. NULL is allowed. */
FRD_EXTERN void frd_ignore_free(struct frd_ignore *ig);

/**
 * Adds a per-directory ignore file name (fd's .fdignore, ripgrep's .rgignore): in every
 * directory, a file of that name holds rules in gitignore syntax for the directory and
 * those below. These take precedence over .ignore and git's rules; of two names, the one
 * added later wins. The name holds no '/'.
 * @return 0, FRD_EINVAL (NULL, empty, "." or "..", or a '/' in it) or FRD_ENOMEM.
 */
FRD_EXTERN int frd_ignore_add_name(struct frd_ignore *ig, const char *name);

/**
 * Adds the rules of a file read now (fd's --ignore-file): gitignore syntax, paths relative
 * to each root of the walk, with the lowest precedence (any per-directory file overrides
 * them). @return 0, FRD_EINVAL (NULL), FRD_ENOMEM, or the code that opening or reading
 * `path` failed with (FRD_ENOENT, also for anything but a regular file; FRD_EACCES, ...):
 * then nothing was added.
 */
FRD_EXTERN int frd_ignore_add_file(struct frd_ignore *ig, const char *path);

/**
 * Adds one rule, a line in gitignore syntax (`*.o`, `!keep.o`, `/build/`), relative to
 * each root, as frd_ignore_add_file()'s rules; a blank or comment line adds nothing.
 * @return 0, FRD_EINVAL (NULL, or a newline in it) or FRD_ENOMEM.
 */
FRD_EXTERN int frd_ignore_add_pattern(struct frd_ignore *ig, const char *line);

/**
 * Skips the contents of every directory that holds an entry of this name (restic's and
 * borg's --exclude-if-present; the directory itself is visited). The name holds no '/'.
 * @return 0, FRD_EINVAL (NULL, empty, or a '/' in it) or FRD_ENOMEM.
 */
FRD_EXTERN int frd_ignore_add_if_present(struct frd_ignore *ig, const char *name);

/**
 * Sets every option to its default: concurrent, no links followed, all depths, every field,
 * no hooks; and struct_size. Call it before setting any option. NULL is not allowed.
 * A macro: it passes the size of the caller's struct to frd_walk_options_init_size(), so
 * the library writes no more than the caller's frd.h declares. (The function of that name
 * stays for programs built against frd 0.2.0 and writes the struct as it was then.)
 */
FRD_EXTERN void frd_walk_options_init(struct frd_walk_options *opts);
#define frd_walk_options_init(opts) frd_walk_options_init_size((opts), sizeof(*(opts)))

/**
 * frd_walk_options_init() with the size of the caller's struct (sizeof, which the macro
 * passes): sets the defaults of the members that fit in `size` bytes, and struct_size to
 * `size` (at most the library's own size). Call frd_walk_options_init() instead.
 */
FRD_EXTERN void frd_walk_options_init_size(struct frd_walk_options *opts, size_t size);

/**
 * The number of worker threads a walk with these options would run callbacks on, in this
 * process as it is now (CPUs, RLIMIT_NOFILE): callbacks' `worker` index stays below it, so
 * per-worker arrays can be sized before frd_walk(). A walk whose threads cannot all start
 * runs fewer, never more. NULL means the defaults.
 * @return the count (1..FRD_WALK_MAX_WORKERS), or FRD_EINVAL for options frd_walk() would
 * refuse. Thread-safe.
 */
FRD_EXTERN int frd_walk_options_workers(const struct frd_walk_options *opts);

/**
 * A ready error policy (use it as opts.on_error): continue silently after what an
 * unprivileged walk of a live tree meets, access denied (FRD_EACCES, FRD_EPERM) and
 * entries that vanish, are replaced or loop (FRD_ENOENT, FRD_ENOTDIR, FRD_ECHANGED,
 * FRD_ELOOP), so a walk is not ended by a file deleted under it; stop at any other
 * (FRD_EIO, FRD_ENOMEM, FRD_EMFILE, ...), and the walk returns that code. (A backup that
 * must go on past an unreadable sector wants frd_walk_print_errors_and_continue() or a
 * hook of its own that records the errors.)
 * @return FRD_ACTION_CONTINUE or FRD_ACTION_STOP. Thread-safe.
 */
FRD_EXTERN enum frd_action frd_walk_ignore_denied_and_vanished(const struct frd_walk_error *err,
                                                               void *udata);

/**
 * Deprecated name of frd_walk_ignore_denied_and_vanished() (it ignores more than permission
 * errors, and stops on FRD_EIO): the same function, kept for programs built against it.
 */
FRD_EXTERN enum frd_action frd_walk_ignore_permission_errors(const struct frd_walk_error *err,
                                                             void *udata);

/**
 * A ready error policy for backups: skip what cannot be read, report everything, never
 * stop. Each error is written to stderr as one line, "frd: PATH: OP: MESSAGE" (with
 * " (ancestor OTHER)" for a loop), in one write so lines of several workers do not mix;
 * the walk goes on after every error (FRD_EIO on one entry included) and the entry is
 * visited with its `error` set where the walk visits it (a failed stat). A root that could
 * not be walked is still returned by frd_walk().
 * @return FRD_ACTION_CONTINUE. Thread-safe.
 */
FRD_EXTERN enum frd_action frd_walk_print_errors_and_continue(const struct frd_walk_error *err,
                                                              void *udata);

/**
 * A ready error policy: continue after every error, silently (what on_error NULL does). A
 * root that could not be walked is still returned by frd_walk() (unless
 * FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY). @return FRD_ACTION_CONTINUE. Thread-safe.
 */
FRD_EXTERN enum frd_action frd_walk_continue_on_errors(const struct frd_walk_error *err,
                                                       void *udata);

/**
 * A ready error policy: stop at the first error; the walk returns its code.
 * @return FRD_ACTION_STOP. Thread-safe.
 */
FRD_EXTERN enum frd_action frd_walk_stop_on_error(const struct frd_walk_error *err, void *udata);

/**
 * Walks the tree below `root` and calls `visit` for the root and every entry below it.
 * Blocks until the walk ends. Thread-safe; each call has its own workers.
 * @return 0 when the walk finished (errors reported to on_error do not count unless it
 * said stop), FRD_ESTOPPED when visit returned FRD_ACTION_STOP, FRD_ECANCELED after
 * frd_walk_cancel(), the error's code when on_error said stop, FRD_EINVAL (NULL root or
 * visit, bad options), FRD_ENOMEM; and the code of the first root that could not be walked
 * (FRD_ENOENT for a missing or empty root, FRD_EACCES for one that cannot be read, ...),
 * after the other roots were walked, whether or not on_error saw it and said go on (with
 * FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY and a hook: only when there is no hook).
 */
FRD_EXTERN int frd_walk(const char *root, const struct frd_walk_options *opts, frd_visit_fn *visit,
                        void *udata);

/** Like frd_walk(), over several roots in the order given (find's PATH...). */
FRD_EXTERN int frd_walk_roots(const char *const *roots, size_t nroots,
                              const struct frd_walk_options *opts, frd_visit_fn *visit,
                              void *udata);

/** A walk started in the background. Opaque. */
struct frd_walk;

/**
 * Starts a walk on the walker's own threads and returns at once. Callbacks run on the
 * workers (also with FRD_WALK_ORDERED: then on one of them, in order). Finish it with
 * frd_walk_join(). *out is set before any thread starts, so a callback may read the handle
 * (say through udata) and pass it to frd_walk_cancel().
 * Legal on a started walk: frd_walk_cancel() from any thread, callbacks included, any
 * number of times; frd_walk_join() once, from a thread that is not running one of its
 * callbacks. After the join the handle is gone.
 * @return 0 with *out set, or a negative code (FRD_EINVAL, FRD_ENOMEM, or FRD_EAGAIN when not
 * one of its threads could be started): then nothing ran and *out is untouched. Failures of
 * the roots come later, as frd_walk() reports them.
 */
FRD_EXTERN int frd_walk_start(struct frd_walk **out, const char *const *roots, size_t nroots,
                              const struct frd_walk_options *opts, frd_visit_fn *visit,
                              void *udata);

/**
 * The number of worker threads of a started walk (frd_walk_start(), frd_walk_start_async())
 * as it resolved them: callbacks' `worker` index is below it. Legal on the walk from its
 * start until it is joined (or its done callback has returned), callbacks included.
 * @return the count (1..FRD_WALK_MAX_WORKERS); 0 for NULL. Thread-safe.
 */
FRD_EXTERN unsigned frd_walk_workers(const struct frd_walk *walk);

/** Waits for a walk started by frd_walk_start(), frees it, and returns what frd_walk() would. */
FRD_EXTERN int frd_walk_join(struct frd_walk *walk);

/**
 * Cancels a walk from any thread: no callback starts after this returns, and the walk ends
 * with FRD_ECANCELED. It waits for callbacks already running to return (except the one it is
 * called from, if any). Safe to call more than once and after the walk has ended, until it is
 * joined (or its done callback has run).
 */
FRD_EXTERN void frd_walk_cancel(struct frd_walk *walk);

struct uv_loop_s;

/**
 * For programs that run a libuv loop: starts a walk on the walker's own threads (not
 * libuv's shared pool, which a long walk would starve) and calls `done(result, udata)` on
 * `loop`'s thread when it ends; the walk frees itself after done returns. frd.h does not
 * include uv.h: pass your uv_loop_t *. The loop must keep running until done is called.
 * *out is set before any thread starts. Legal on an async walk: frd_walk_cancel() from any
 * thread (callbacks and the loop's thread included) until done has run; frd_walk_unref()
 * and frd_walk_ref() on the loop's thread until done has run; never frd_walk_join() (the
 * walk joins and frees itself); nothing after done returns.
 * The walk keeps the loop alive until it ends (uv_run() does not return before done), as
 * an active libuv handle does: see frd_walk_unref() for a walk that should not.
 * @return 0 with *out set, or a code (FRD_EINVAL, FRD_ENOMEM, or FRD_EAGAIN when not one of
 * its threads could be started): then done is never called and *out is untouched.
 */
FRD_EXTERN int frd_walk_start_async(struct frd_walk **out, struct uv_loop_s *loop,
                                    const char *const *roots, size_t nroots,
                                    const struct frd_walk_options *opts, frd_visit_fn *visit,
                                    void *udata, frd_walk_done_fn *done);

/**
 * An async walk (frd_walk_start_async()) no longer keeps its loop alive, as uv_unref() does
 * for a handle: uv_run(loop, UV_RUN_DEFAULT) may return while the walk still runs, when
 * nothing else keeps the loop alive. The walk goes on meanwhile, and done is called on a
 * later run of the loop once it has ended (to wait for it: frd_walk_ref(), then run the
 * loop; a walk nobody waits for any more can be cancelled first). For a host whose process
 * should be able to exit with a walk abandoned unfinished (Node's loop). Idempotent; a new
 * walk counts.
 * Call it on the loop's thread only (as any uv_ref()/uv_unref()), from the start until
 * done has run (done included); not on a walk of frd_walk_start().
 * @return 0, or FRD_EINVAL (NULL, or not an async walk).
 */
FRD_EXTERN int frd_walk_unref(struct frd_walk *walk);

/**
 * Undoes frd_walk_unref(): the async walk keeps its loop alive again until it ends.
 * Idempotent; the same thread and lifetime as frd_walk_unref().
 * @return 0, or FRD_EINVAL (NULL, or not an async walk).
 */
FRD_EXTERN int frd_walk_ref(struct frd_walk *walk);

/* ---------------------------------------------------------------------------------------- */
/* The pull iterator                                                                        */
/* ---------------------------------------------------------------------------------------- */

/**
 * A walk whose records the caller pulls, batch by batch, at its own pace, from one thread
 * (say a language binding's, or a loop that writes a backup's index). Opaque. The walk runs
 * ahead on its own workers (as frd_walk_start()) and copies each visit and each error into
 * a record; a worker fills a batch of its own and hands it over when it is full, so the
 * consumer takes records by the hundred. Memory is bounded: at most opts.max_buffered
 * records exist at once (the batch the consumer holds included), and a worker that needs
 * room past that waits until the consumer takes more (backpressure); the bound holds in
 * both modes, whatever the consumer's pace.
 */
struct frd_walk_iter;

/** What a record of the pull iterator is. */
enum frd_walk_iter_kind {
    FRD_WALK_ITER_ENTRY = 0, /**< a visit: the root or an entry below it */
    /** an error, as the error hook would get it (struct frd_walk_error's rule): code, call,
     *  op, path, depth, other_path */
    FRD_WALK_ITER_ERROR = 1,
    /** a directory is finished (FRD_WALK_DIR_DONE_RECORDS only): after every record below
     *  it, as the post-order hook would be called; entry and totals are the directory's */
    FRD_WALK_ITER_DIR_DONE = 2,
};

/**
 * What only some records carry (frd_walk_iter_record.extra): an error's details, a finished
 * directory's totals, and the opt-in fields of a visit (link target, extended attributes,
 * hard-link group). Owned by the iterator, valid as long as its record. Growth (ABI): the
 * iterator fills it and the caller only reads it, so it grows at its end.
 */
struct frd_walk_iter_extra {
    /** FRD_WALK_ITER_ERROR: the negative code; 0 otherwise (see the record's error for a
     *  failed stat, which is reported by an error record first, as with callbacks) */
    int code;
    enum frd_op call; /**< FRD_WALK_ITER_ERROR: the kind of call that failed */
    /** FRD_WALK_ITER_ERROR: the platform call's name (static storage); NULL otherwise */
    const char *op;
    /** FRD_WALK_ITER_ERROR of a loop: the ancestor's path, as frd_walk_error.other_path;
     *  NULL otherwise */
    const char *other_path;
    struct frd_walk_dir_totals totals; /**< FRD_WALK_ITER_DIR_DONE: the directory's totals */
    /** With FRD_WALK_LINK_TARGETS, a symbolic link's target as frd_walk_entry.link_target
     *  (NUL-terminated); NULL otherwise */
    const char *link_target;
    size_t link_target_len; /**< bytes in link_target */
    /** With FRD_WALK_XATTRS, the entry's extended attributes, as frd_walk_entry.xattrs */
    const struct frd_xattr *xattrs;
    size_t xattr_count; /**< entries in xattrs */
    /** With FRD_WALK_LINK_GROUPS, as frd_walk_entry.link_group: the hard-link group of an
     *  entry with nlink > 1; 0 otherwise */
    uint64_t link_group;
    /** With link_group: the path under which the walk visited that group first
     *  (NUL-terminated, a copy valid as long as the record); NULL in that first visit */
    const char *link_first;
    size_t link_first_len; /**< bytes in link_first */
};

/**
 * One record of the pull iterator: a visit, an error or a finished directory, with what
 * the visit callback would have seen. Owned by the iterator: valid until the next
 * frd_walk_iter_next() or frd_walk_iter_close() on it. Growth (ABI): the iterator fills it
 * and the caller only reads it, so it grows at its end.
 *
 * A record is small (88 bytes on 64-bit systems): what a listing gives (path, name, type,
 * file id) and the walk's numbers are in it; what a stat gives is behind `entry`, NULL in a
 * walk of names and types only, so such a walk writes and reads no more per entry than it
 * uses; what only some records carry is behind `extra`, NULL for a plain visit (one with no
 * link target, no extended attributes and no hard-link group).
 *
 * Per-directory context: the consumer cannot store a state in a directory's visit as a
 * callback does (the walk is ahead of it), so each directory the walk may enter carries a
 * number instead: dir_id in the directory's own record, and the same number as parent_id in
 * the records of its entries (and as dir_id in its FRD_WALK_ITER_DIR_DONE record). Keep
 * per-directory state in a table keyed by it. A directory's record comes before its
 * entries' records in both modes; in the concurrent mode records of different directories
 * interleave.
 */
struct frd_walk_iter_record {
    /** The path, NUL-terminated, as frd_walk_entry.path (an error: as
     *  frd_walk_error.path) */
    const char *path;
    /** FRD_WALK_ITER_ENTRY, FRD_WALK_ITER_DIR_DONE: the entry's name, NUL-terminated (below
     *  a root, the last name_len bytes of path); NULL for an error record */
    const char *name;
    /** FRD_WALK_ITER_ENTRY, FRD_WALK_ITER_DIR_DONE: the entry as the visit saw it, every
     *  field the walk gives (its name is `name`; error set when its stat failed). NULL in a
     *  walk of names and types only (no field asked beyond FRD_FIELD_TYPE: see
     *  frd_walk_iter_open()), whose records carry what a listing gives in the members
     *  below (name_len, type, file_id, fields, error), and for an error record. */
    const struct frd_entry *entry;
    /** NULL for a plain visit; never NULL for an error or a finished directory, nor for a
     *  visit with a link target, extended attributes or a hard-link group (all its members
     *  are zero or NULL where the record has no such thing) */
    const struct frd_walk_iter_extra *extra;
    /** A directory the walk may enter (FRD_WALK_ITER_ENTRY of a directory): its number,
     *  never 0, unique in this walk; FRD_WALK_ITER_DIR_DONE: the finished directory's; 0
     *  otherwise. */
    uint64_t dir_id;
    /** The dir_id of the directory holding this entry; 0 for a root and for an error. */
    uint64_t parent_id;
    uint64_t file_id;  /**< as entry->file_id (with FRD_FIELD_FILE_ID in fields); else 0 */
    uint32_t path_len; /**< bytes in path */
    uint32_t name_len; /**< bytes in name (0 for an error record) */
    unsigned depth;    /**< 0 for a root, 1 for its entries, ... */
    /** as frd_walk_entry.root_index (0 for an error record) */
    unsigned root_index;
    /** as entry->error: 0, or the negative code of the stat that failed for this entry
     *  (reported by an error record first, as with callbacks); 0 for an error record */
    int error;
    /** as entry->fields: enum frd_field bits saying which members of entry hold data (in a
     *  walk of names and types: FRD_FIELD_TYPE, and FRD_FIELD_FILE_ID with file_id) */
    unsigned fields;
    uint8_t kind; /**< enum frd_walk_iter_kind: what the record is */
    uint8_t type; /**< enum frd_type: as entry->type (FRD_TYPE_UNKNOWN for an error) */
    /** the worker that made the record, as frd_walk_entry.worker (0 in the ordered mode) */
    uint16_t worker;
    bool is_root;        /**< as frd_walk_entry.is_root */
    bool followed_link;  /**< as frd_walk_entry.followed_link */
    bool persistent_ids; /**< as frd_walk_entry.persistent_ids */
};

/** A batch of records (frd_walk_iter_next()): `count` records from `records[0]`. */
struct frd_walk_iter_batch {
    const struct frd_walk_iter_record *records;
    size_t count;
};

/** The iterator's buffer figures (frd_walk_iter_stats()). Grows at its end. */
struct frd_walk_iter_stats {
    size_t max_buffered;  /**< the bound: opts.max_buffered as resolved */
    size_t batch_records; /**< records per batch (at most max_buffered / workers) */
    /** Room for records held now: every batch that workers fill, the walk queues or the
     *  consumer holds counts whole, so this is at least the records buffered */
    size_t buffered;
    size_t buffered_peak; /**< the highest `buffered` so far: never above max_buffered */
    uint64_t waits;       /**< times a worker waited for room (the consumer was behind) */
    unsigned waiting;     /**< workers waiting for room now */
    unsigned workers;     /**< the walk's worker count, as frd_walk_workers() */
    /** times a waiting consumer asked the workers for the records they hold in batches not
     *  yet full (a slow walk: see frd_walk_iter_next()) */
    uint64_t asks;
};

/**
 * Starts a walk of `roots` whose records are pulled with frd_walk_iter_next(). The options
 * are those of frd_walk_roots(), both modes, plus max_buffered and
 * FRD_WALK_DIR_DONE_RECORDS; opts.on_dir_done and opts.on_dir_state_free must be NULL (a
 * finished directory is a record, and the iterator uses dir_state for its numbers). The
 * other hooks run on the workers as in a walk, with `udata`: on_children (its
 * dir->dir_state in the concurrent mode holds the iterator's number: store nothing there),
 * on_progress, and on_error, called after the error's record is queued: it says whether
 * the walk goes on (without it, the walk goes on after every error; errors reach the
 * consumer as records either way). The workers start at once and run ahead of the consumer
 * up to max_buffered records. NULL opts means the defaults. A walk of names and types only
 * (FRD_WALK_NAMES_ONLY, or fields of FRD_FIELD_TYPE alone, without FRD_WALK_UNIQUE_FILES,
 * FRD_WALK_UNIQUE_DIRS or FRD_WALK_LINK_GROUPS, which need ids) gives records without
 * `entry`: their name, type, file id and error are in the record itself.
 * @return 0 with *out set, or a negative code (FRD_EINVAL for NULL out or roots, no roots,
 * a NULL root, bad options, or a hook the iterator cannot run; FRD_ENOMEM; FRD_EAGAIN when
 * not one thread could be started): then *out is untouched and nothing ran. Failures of the
 * roots come later, as records and as the end's result.
 */
FRD_EXTERN int frd_walk_iter_open(struct frd_walk_iter **out, const char *const *roots,
                                  size_t nroots, const struct frd_walk_options *opts, void *udata);

/**
 * Takes the next batch of records, waiting for the workers if none is ready. The batch
 * before it (and every pointer into it) is given back to the walk, which reuses its room.
 * A consumer that waits is woken for a few batches at once, not for each (wake-ups cost
 * more than records): a full batch may wait up to 20 ms before a waiting call takes it,
 * never at the end of the walk nor while workers wait for room. In a slow walk, where
 * batches fill slowly, a consumer that has waited 20 ms (in this call or in
 * frd_walk_iter_wait()) asks the workers for what they hold: each hands over its batch as
 * it stands at its next record (a worker blocked in a hook or a system call answers when
 * it gets back), and again every 20 ms while the consumer waits.
 * Call it from one thread at a time (any thread, not a callback of the walk).
 * @return 1 with *batch set (count >= 1); at the end of the walk, after every record:
 * 0 (batch->count 0) when frd_walk_roots() would have returned 0, else the negative code
 * it would have returned (the first root that could not be walked, the code on_error said
 * stop for, FRD_ENOMEM, ...), again on every later call; FRD_EINVAL for NULL.
 */
FRD_EXTERN int frd_walk_iter_next(struct frd_walk_iter *it, struct frd_walk_iter_batch *batch);

/**
 * Waits until frd_walk_iter_next() has something to return without waiting (a batch, or
 * the end), or until `timeout_ms` milliseconds have passed: for a consumer that must look
 * at something else now and then while it waits (a language binding checking for signals).
 * Same thread rule as frd_walk_iter_next(). The batch taken before is given back first, as
 * frd_walk_iter_next() gives it back (its records are no longer valid): the workers may
 * need its room to fill the next one.
 * @return 1 when ready, 0 when the time ran out, FRD_EINVAL for NULL.
 */
FRD_EXTERN int frd_walk_iter_wait(struct frd_walk_iter *it, unsigned timeout_ms);

/**
 * Ends the walk at any point (before the first batch, between two, after the end) and
 * frees the iterator: workers waiting for room are woken, the walk is cancelled, its
 * threads are joined and its descriptors closed before this returns; records not taken
 * are dropped. Call it once, from the consumer's thread (not from a hook). NULL is allowed.
 */
FRD_EXTERN void frd_walk_iter_close(struct frd_walk_iter *it);

/**
 * Fills *st with the iterator's buffer figures (for tests of the bound, and to size
 * max_buffered). Callable from any thread until frd_walk_iter_close().
 * @return 0, or FRD_EINVAL for NULL.
 */
FRD_EXTERN int frd_walk_iter_stats(struct frd_walk_iter *it, struct frd_walk_iter_stats *st);

/**
 * The one-call collector: every entry below `root` (not the root itself) with its path
 * relative to the root, as Node's fs.readdir(path, {recursive: true, withFileTypes: true})
 * returns them, but listed in parallel. Entries are in `out` in no set order (sort with
 * frd_list_sort() for name order of the relative paths); each entry's name is its relative
 * path. @param flags enum frd_walk_flag bits (FRD_WALK_NAMES_ONLY for names and types only).
 * @return the number of entries, or a negative code; errors below the root are skipped
 * (the entries that could be read are returned).
 */
FRD_EXTERN int frd_read_tree(const char *root, unsigned flags, struct frd_list *out);

#ifdef __cplusplus
}
#endif

#endif // FRD_H
