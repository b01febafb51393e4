// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * macOS backend: getattrlistbulk for full listings, __getdirentries64 for names only.
 *
 * Status: written from xnu's headers and man pages (getattrlistbulk(2), getattrlist(2),
 * bsd/sys/attr.h, bsd/sys/dirent.h, bsd/vfs/vfs_attrlist.c) and never compiled or run: CI
 * has no Mac. Every byte of the kernel's buffers is read by decode/attrlist.c and
 * decode/direntry.c, which are tested and fuzzed on Linux; this file only makes the calls
 * and copies decoded fields into entries.
 *
 * Full listing: one getattrlistbulk call fills the 64 KiB buffer with as many entries as
 * fit, each with name, type and the attributes the wanted fields need
 * (frd__attr_request_for() in attr_entry.h: device, times with the creation time as btime,
 * owner, mode, st_flags as attributes, file id, link count, size, allocated size, device
 * number), so no per-entry stat is needed (the reason this call exists, macOS 10.10+). The
 * request leaves out FSOPT_PACK_INVAL_ATTRS, so absent attributes are omitted and the
 * returned bitmap drives the decoder. An entry the kernel could not read comes back with
 * ATTR_CMN_ERROR set and only its name; it is kept with `error` set, or left out if the
 * error is ENOENT (removed meanwhile), as on Linux. The file id is reported only on a volume
 * whose capabilities say object ids persist (VOL_CAP_FMT_PERSISTENTOBJECTIDS), asked once
 * per device and remembered by the lister.
 *
 * Names only (or type and file id only): __getdirentries64, the call Libc's readdir makes
 * (libSystem exports it; it is not in any header), fills struct direntry records with
 * d_type and d_ino, and its last four bytes tell whether the directory is exhausted, which
 * saves the final empty call. DT_UNKNOWN costs one fstatat. An App Store build may not use
 * a private symbol: with FRD_USE_GETDIRENTRIES64 = 0 (CMake FRD_DARWIN_PUBLIC_API_ONLY)
 * such listings use getattrlistbulk with a request of name and type (and file id), which
 * is public and nearly as fast.
 */
#include "attr_entry.h"
#include "decode.h"
#include "internal.h"
#include "platform.h"
#include "unix_stat.h"
#include "unix_types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/attr.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/param.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vnode.h> // enum vtype
#include <time.h>
#include <unistd.h>

#if !defined(FRD_USE_GETDIRENTRIES64)
#    define FRD_USE_GETDIRENTRIES64 1
#endif

// The decoder's sizes and bits (decode.h) against the SDK's.
_Static_assert(sizeof(attribute_set_t) == 20, "attribute_set_t");
_Static_assert(sizeof(attrreference_t) == 8, "attrreference_t");
_Static_assert(sizeof(struct timespec) == 16, "timespec of 64-bit macOS");
_Static_assert(sizeof(off_t) == 8 && sizeof(dev_t) == 4, "off_t and dev_t");
_Static_assert(ATTR_CMN_NAME == FRD__ATTR_CMN_NAME && ATTR_CMN_DEVID == FRD__ATTR_CMN_DEVID &&
                   ATTR_CMN_OBJTYPE == FRD__ATTR_CMN_OBJTYPE &&
                   ATTR_CMN_MODTIME == FRD__ATTR_CMN_MODTIME &&
                   ATTR_CMN_CHGTIME == FRD__ATTR_CMN_CHGTIME &&
                   ATTR_CMN_ACCESSMASK == FRD__ATTR_CMN_ACCESSMASK &&
                   ATTR_CMN_FILEID == FRD__ATTR_CMN_FILEID &&
                   ATTR_CMN_ERROR == FRD__ATTR_CMN_ERROR &&
                   ATTR_CMN_RETURNED_ATTRS == FRD__ATTR_CMN_RETURNED_ATTRS,
               "common attribute bits");
_Static_assert(ATTR_DIR_LINKCOUNT == FRD__ATTR_DIR_LINKCOUNT &&
                   ATTR_DIR_MOUNTSTATUS == FRD__ATTR_DIR_MOUNTSTATUS &&
                   ATTR_FILE_LINKCOUNT == FRD__ATTR_FILE_LINKCOUNT &&
                   ATTR_FILE_DATALENGTH == FRD__ATTR_FILE_DATALENGTH &&
                   ATTR_FILE_DATAALLOCSIZE == FRD__ATTR_FILE_DATAALLOCSIZE,
               "dir and file attribute bits");
_Static_assert(ATTR_CMN_CRTIME == FRD__ATTR_CMN_CRTIME &&
                   ATTR_CMN_ACCTIME == FRD__ATTR_CMN_ACCTIME &&
                   ATTR_CMN_OWNERID == FRD__ATTR_CMN_OWNERID &&
                   ATTR_CMN_GRPID == FRD__ATTR_CMN_GRPID && ATTR_CMN_FLAGS == FRD__ATTR_CMN_FLAGS &&
                   ATTR_FILE_DEVTYPE == FRD__ATTR_FILE_DEVTYPE &&
                   DIR_MNTSTATUS_MNTPOINT == FRD__DIR_MNTSTATUS_MNTPOINT,
               "attribute bits of the v1 fields");
_Static_assert(UF_NODUMP == FRD__UF_NODUMP && UF_IMMUTABLE == FRD__UF_IMMUTABLE &&
                   UF_APPEND == FRD__UF_APPEND && UF_COMPRESSED == FRD__UF_COMPRESSED &&
                   SF_IMMUTABLE == FRD__SF_IMMUTABLE && SF_APPEND == FRD__SF_APPEND,
               "st_flags bits");
_Static_assert(VREG == FRD__VREG && VDIR == FRD__VDIR && VLNK == FRD__VLNK && VFIFO == FRD__VFIFO,
               "enum vtype");

#if FRD_USE_GETDIRENTRIES64
/** Libc's readdir(3) calls this; it is exported by libSystem but declared in no header. */
extern ssize_t __getdirentries64(int fd, void *buf, size_t bufsize, off_t *basep);
#endif

void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

/** Tests: list full listings through __getdirentries64 plus fstatat. */
static atomic_bool dw_force_fallback;

bool frd__plat_force_fallback(bool on)
{
    atomic_store_explicit(&dw_force_fallback, on, memory_order_relaxed);
    return FRD_USE_GETDIRENTRIES64 != 0; // the fallback is the private call plus fstatat
}

const unsigned frd__plat_record_fields = FRD_FIELDS_ALL; // getattrlistbulk: the metadata

/** Volumes whose id persistence a lister has asked about. */
#define DW_VOLUMES 8
struct dw_state {
    dev_t dev[DW_VOLUMES];
    bool persistent[DW_VOLUMES];
    unsigned n;
    unsigned next;
};

void frd__plat_lister_release(struct frd_lister *lister)
{
    frd__free(lister->backend);
    lister->backend = NULL;
}

/** The volume capabilities of the file system holding fd (getattrlist ATTR_VOL_CAPABILITIES). */
static int dw_capabilities(int fd, vol_capabilities_attr_t *caps)
{
    struct attrlist al;
    memset(&al, 0, sizeof(al));
    al.bitmapcount = ATTR_BIT_MAP_COUNT;
    al.volattr = ATTR_VOL_INFO | ATTR_VOL_CAPABILITIES;
    struct {
        uint32_t length;
        vol_capabilities_attr_t caps;
    } __attribute__((aligned(4), packed)) reply;
    if (fgetattrlist(fd, &al, &reply, sizeof(reply), 0) != 0) {
        return -errno;
    }
    memcpy(caps, &reply.caps, sizeof(*caps));
    return 0;
}

static bool dw_cap(const vol_capabilities_attr_t *caps, int index, uint32_t bit)
{
    return (caps->valid[index] & bit) && (caps->capabilities[index] & bit);
}

/** @return whether file ids on fd's volume persist; remembered per lister and device. */
static bool dw_persistent_ids(struct frd_lister *lister, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return false;
    }
    struct dw_state *s = lister->backend;
    if (s == NULL) {
        s = lister->backend = frd__calloc(1, sizeof(*s));
        if (s == NULL) {
            return false;
        }
    }
    for (unsigned i = 0; i < s->n; i++) {
        if (s->dev[i] == st.st_dev) {
            return s->persistent[i];
        }
    }
    vol_capabilities_attr_t caps;
    bool persistent = dw_capabilities(fd, &caps) == 0 &&
                      dw_cap(&caps, VOL_CAPABILITIES_FORMAT, VOL_CAP_FMT_PERSISTENTOBJECTIDS);
    unsigned i = s->n < DW_VOLUMES ? s->n++ : s->next++ % DW_VOLUMES;
    s->dev[i] = st.st_dev;
    s->persistent[i] = persistent;
    return persistent;
}

static bool dw_is_dot(const char *name, size_t len)
{
    return name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.'));
}

/** Copies one decoded getattrlistbulk entry into a new list entry. @return 1, 0 (left out), or a code. */
static int dw_append_attr(struct frd_list *list, const struct frd__attr_entry *rec, unsigned wanted,
                          bool persistent)
{
    if (dw_is_dot(rec->name, rec->name_len)) {
        return 0;
    }
    if (rec->error == ENOENT) {
        return 0; // removed between the directory read and the attribute read
    }
    struct frd_entry *e = frd__list_push(list, rec->name, rec->name_len);
    if (e == NULL) {
        return FRD_ENOMEM;
    }
    frd__entry_from_attr(e, rec, wanted, persistent);
    return 1;
}

static int dw_list_bulk(struct frd_lister *lister, struct frd_list *list, int fd, unsigned wanted,
                        struct frd__failure *op)
{
    struct frd__attr_set request;
    frd__attr_request_for(wanted, &request);
    const struct frd__attr_set *req = &request;
    bool persistent = (wanted & FRD_FIELD_FILE_ID) ? dw_persistent_ids(lister, fd) : false;
    struct attrlist al;
    memset(&al, 0, sizeof(al));
    al.bitmapcount = ATTR_BIT_MAP_COUNT;
    al.commonattr = req->common;
    al.dirattr = req->dir;
    al.fileattr = req->file;
    int total = 0;
    for (;;) {
        int n = getattrlistbulk(fd, &al, lister->buffer, FRD__LISTER_BUFFER_SIZE, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            frd__failure_set(op, "getattrlistbulk", FRD_OP_READ_DIR);
            return -errno;
        }
        if (n == 0) {
            return total;
        }
        size_t pos = 0;
        for (int i = 0; i < n; i++) {
            struct frd__attr_entry rec;
            int rc =
                frd__decode_attr_entry(lister->buffer, FRD__LISTER_BUFFER_SIZE, &pos, req, 0, &rec);
            if (rc <= 0) {
                frd__failure_set(op, "getattrlistbulk", FRD_OP_READ_DIR);
                return FRD_EMALFORMED; // fewer entries than the count said, or a bad one
            }
            rc = dw_append_attr(list, &rec, wanted, persistent);
            if (rc < 0) {
                frd__failure_set(op, "append", FRD_OP_ALLOC);
                return rc;
            }
            if (total == INT32_MAX) {
                frd__failure_set(op, "getattrlistbulk", FRD_OP_READ_DIR);
                return FRD_EOVERFLOW;
            }
            total += rc;
        }
    }
}

/** Lists with struct direntry records, stat'ing what the records do not tell. */
static int dw_list_direntries(struct frd_lister *lister, struct frd_list *list, int fd,
                              unsigned wanted, struct frd__failure *op)
{
#if FRD_USE_GETDIRENTRIES64
    // d_ino is the file id where the volume's ids persist (as with getattrlistbulk).
    bool persistent = (wanted & FRD_FIELD_FILE_ID) && dw_persistent_ids(lister, fd);
    int total = 0;
    off_t base = 0;
    for (;;) {
        ssize_t n = __getdirentries64(fd, lister->buffer, FRD__LISTER_BUFFER_SIZE, &base);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            frd__failure_set(op, "getdirentries64", FRD_OP_READ_DIR);
            return -errno;
        }
        if (n == 0) {
            return total;
        }
        int eof = frd__direntry_eof(lister->buffer, FRD__LISTER_BUFFER_SIZE, (size_t)n);
        if (eof < 0) {
            frd__failure_set(op, "getdirentries64", FRD_OP_READ_DIR);
            return eof;
        }
        size_t pos = 0;
        struct frd__direntry rec;
        int rc;
        while ((rc = frd__decode_direntry(lister->buffer, (size_t)n, &pos, &rec)) > 0) {
            if (dw_is_dot(rec.name, rec.name_len)) {
                continue;
            }
            struct frd_entry *e = frd__list_push(list, rec.name, rec.name_len);
            if (e == NULL) {
                frd__failure_set(op, "append", FRD_OP_ALLOC);
                return FRD_ENOMEM;
            }
            enum frd_type dtype = frd__type_from_dt(rec.type);
            if ((wanted & ~(unsigned)FRD__DIRENT_FIELDS) == 0 &&
                frd__record_answers(wanted, dtype)) {
                e->type = dtype;
                e->fields = FRD_FIELD_TYPE;
                if (persistent) {
                    e->file_id = rec.ino;
                    e->fields |= FRD_FIELD_FILE_ID;
                }
            } else {
                if (frd__test_before_stat != NULL) {
                    frd__test_before_stat(fd, e->name);
                }
                struct stat st;
                if (fstatat(fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                    if (errno == ENOENT) {
                        frd__list_pop(list);
                        continue;
                    }
                    e->error = -errno;
                    e->type = dtype;
                    e->fields = dtype != FRD_TYPE_UNKNOWN ? FRD_FIELD_TYPE : 0;
                } else {
                    frd__entry_from_stat(e, &st, wanted);
                }
            }
            if (total == INT32_MAX) {
                frd__failure_set(op, "getdirentries64", FRD_OP_READ_DIR);
                return FRD_EOVERFLOW;
            }
            total++;
        }
        if (rc < 0) {
            frd__failure_set(op, "getdirentries64", FRD_OP_READ_DIR);
            return rc;
        }
        if (eof == 1) {
            return total;
        }
    }
#else
    // Without the private call, the fallback is the public bulk call.
    return dw_list_bulk(lister, list, fd, wanted, op);
#endif // FRD_USE_GETDIRENTRIES64
}

int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      struct frd__failure *op)
{
    unsigned wanted = frd__wanted_fields(lister->flags, lister->wanted);
    if ((lister->flags & FRD_LIST_REWIND) && lseek(fd, 0, SEEK_SET) < 0) {
        frd__failure_set(op, "lseek", FRD_OP_READ_DIR);
        return -errno;
    }
    if (FRD_USE_GETDIRENTRIES64 && atomic_load_explicit(&dw_force_fallback, memory_order_relaxed)) {
        return dw_list_direntries(lister, list, fd, wanted, op);
    }
    // The records of __getdirentries64 answer type and file id without a stat.
    if (FRD_USE_GETDIRENTRIES64 && (wanted & ~(unsigned)FRD__DIRENT_FIELDS) == 0) {
        return dw_list_direntries(lister, list, fd, wanted, op);
    }
    return dw_list_bulk(lister, list, fd, wanted, op);
}

// A listing in batches: not split here yet (getattrlistbulk keeps no state of its own, so
// it could be; no Mac to test it on). The first batch is the whole directory, the next is
// the end.
int frd__plat_list_batch(struct frd_lister *lister, struct frd_list *list, struct frd__failure *op)
{
    if (lister->batch_started) {
        return 0;
    }
    lister->batch_started = true;
    return frd__plat_list_fd(lister, list, lister->batch_fd, op);
}

void frd__plat_batch_end(struct frd_lister *lister)
{
    (void)lister;
}

// What the walker needs: stat by name, identity and volume class of an open directory.

int frd__plat_stat_fields(frd_os_fd dir, const char *name, bool follow, unsigned wanted,
                          struct frd_entry *e)
{
    struct stat st;
    if (fstatat(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name, &st,
                follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0) {
        return -errno;
    }
    frd__entry_from_stat(e, &st, wanted);
    return 0;
}

int frd__plat_fd_identity(frd_os_fd fd, struct frd__identity *out)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return -errno;
    }
    out->dev = (uint64_t)(uint32_t)st.st_dev;
    out->ino = st.st_ino;
    out->subvol = 0;
    return 0;
}

/** The first 8 bytes of f_fstypename, little-endian: macOS's stable file system "number". */
static uint64_t dw_fs_type(const char *name)
{
    uint64_t type = 0;
    for (unsigned i = 0; i < 8 && name[i] != '\0'; i++) {
        type |= (uint64_t)(unsigned char)name[i] << (8 * i);
    }
    return type;
}

enum frd__vol_class frd__plat_classify_fs_type(uint64_t fs_type)
{
    // f_type numbers are assigned at boot on macOS; the type name is what stays the same.
    switch (fs_type) {
    case 0x73667061u: // "apfs"
    case 0x736668u:   // "hfs"
    case 0x73666eu:   // "nfs"
        return FRD__VOL_STRONG;
    case 0x736f64736du: // "msdos": ids from directory positions
    case 0x7461667865u: // "exfat"
    case 0x7366626d73u: // "smbfs": server ids, or made up
        return FRD__VOL_WEAK;
    default: // macfuse, osxfuse, webdav, ...
        return FRD__VOL_UNTRUSTED;
    }
}

int frd__plat_volume_class(frd_os_fd fd, enum frd__vol_class *out)
{
    struct statfs sfs;
    if (fstatfs(fd, &sfs) != 0) {
        return -errno;
    }
    enum frd__vol_class c = frd__plat_classify_fs_type(dw_fs_type(sfs.f_fstypename));
    // A known name is not enough: the volume must also say its ids persist.
    vol_capabilities_attr_t caps;
    if (c == FRD__VOL_STRONG &&
        (dw_capabilities(fd, &caps) != 0 ||
         !dw_cap(&caps, VOL_CAPABILITIES_FORMAT, VOL_CAP_FMT_PERSISTENTOBJECTIDS))) {
        c = FRD__VOL_WEAK;
    }
    *out = c;
    return 0;
}

int frd__plat_fd_path(frd_os_fd fd, char *buf, size_t cap)
{
    char path[MAXPATHLEN];
    if (fcntl(fd, F_GETPATH, path) != 0) {
        return -errno;
    }
    size_t len = strlen(path);
    if (len + 1 > cap) {
        return FRD_ENAMETOOLONG;
    }
    memcpy(buf, path, len + 1);
    return (int)len;
}

bool frd__plat_mounts_may_cycle(void)
{
    return true; // cannot tell here: every directory is checked
}
