// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Windows backend: GetFileInformationByHandleEx directory classes into the lister's buffer.
 *
 * Opening. A path is opened with CreateFileW, a name relative to an open directory with
 * NtCreateFile(RootDirectory = parent), so a walk never rebuilds long paths. Both ask for
 * the reparse point itself (FILE_FLAG_OPEN_REPARSE_POINT / FILE_OPEN_REPARSE_POINT) and for
 * backup semantics (directories open only with it). If what opened is a name-surrogate
 * reparse point (a symlink or a junction), FRD_OPEN_NOFOLLOW makes that FRD_ELOOP, as
 * O_NOFOLLOW does on POSIX; otherwise it is closed and opened again, followed. Entries of a
 * listing are never followed: their records describe the link itself.
 *
 * Listing. Each call fills the 64 KiB buffer with records chained by NextEntryOffset, which
 * decode/nt_dirinfo.c walks (nothing here reads a record's bytes); names go through
 * frd__utf16le_to_utf8 (SSE2/AVX2) into a per-lister scratch buffer and then the list. A
 * full listing asks for FILE_ID_EXTD_DIR_INFO (128-bit ids, ReFS); a volume that refuses it
 * (FAT, exFAT, some redirectors, Wine: ERROR_INVALID_PARAMETER or ERROR_NOT_SUPPORTED) gets
 * FILE_ID_BOTH_DIR_INFO, then FILE_FULL_DIR_INFO. A names-only listing asks for the shortest
 * record, FILE_FULL_DIR_INFO, first. What a volume refused is remembered per lister by
 * volume serial number, so the refusal costs one call per volume, not per directory.
 * FRD_LIST_REWIND uses the Restart variant of the class on the first call.
 *
 * What a record gives: name, type (directory, reparse tag), size (EndOfFile), allocation
 * size, mtime (LastWriteTime), ctime (ChangeTime) and, from the ID classes, the file id
 * when it fits 64 bits. dev is the volume serial number of the directory. No link count or
 * mode: those need a handle per entry, which is what this backend exists to avoid.
 *
 * Errors: Win32 codes (GetLastError) and NTSTATUS codes (through RtlNtStatusToDosError) are
 * translated once, here, to FRD_ codes.
 */
#include "decode.h"
#include "dt_types.h"
#include "internal.h"
#include "platform.h"

#include <stddef.h>
#include <string.h>
#include <windows.h>
#include <winternl.h>

// The decoder's offsets (decode.h) against the SDK's structures.
_Static_assert(offsetof(FILE_FULL_DIR_INFO, FileName) == 68, "FILE_FULL_DIR_INFO layout");
_Static_assert(offsetof(FILE_ID_BOTH_DIR_INFO, FileId) == 96, "FILE_ID_BOTH_DIR_INFO layout");
_Static_assert(offsetof(FILE_ID_BOTH_DIR_INFO, FileName) == 104, "FILE_ID_BOTH_DIR_INFO layout");
_Static_assert(offsetof(FILE_ID_EXTD_DIR_INFO, ReparsePointTag) == 68, "FILE_ID_EXTD layout");
_Static_assert(offsetof(FILE_ID_EXTD_DIR_INFO, FileId) == 72, "FILE_ID_EXTD_DIR_INFO layout");
_Static_assert(offsetof(FILE_ID_EXTD_DIR_INFO, FileName) == 88, "FILE_ID_EXTD_DIR_INFO layout");
_Static_assert(offsetof(FILE_FULL_DIR_INFO, LastWriteTime) == 24, "common prefix layout");
_Static_assert(offsetof(FILE_FULL_DIR_INFO, FileNameLength) == 60, "common prefix layout");
_Static_assert(FRD__LISTER_BUFFER_SIZE <= 0xFFFFFFFFu, "buffer size must fit a DWORD");

void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

/** Tests: list with the last class of the chain, as on a volume that refuses the others. */
static volatile LONG win_force_full;

/** Access a listing handle needs: list, read attributes, and wait on it (synchronous I/O). */
#define WIN_DIR_ACCESS (FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE)
#define WIN_SHARE_ALL  (FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)

/** Translates a Win32 error code. */
static int win_err(DWORD err)
{
    switch (err) {
    case ERROR_SUCCESS:
        return 0;
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME: // a name Windows cannot hold cannot exist
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
    case ERROR_INVALID_DRIVE:
    case ERROR_DELETE_PENDING:
        return FRD_ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_PRIVILEGE_NOT_HELD:
        return FRD_EACCES;
    case ERROR_DIRECTORY: // "The directory name is invalid": a file where a directory was due
        return FRD_ENOTDIR;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return FRD_ENOMEM;
    case ERROR_TOO_MANY_OPEN_FILES:
        return FRD_EMFILE;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_BUSY:
        return FRD_EBUSY;
    case ERROR_FILENAME_EXCED_RANGE:
    case ERROR_BUFFER_OVERFLOW:
        return FRD_ENAMETOOLONG;
    case ERROR_CANT_RESOLVE_FILENAME: // too many reparse points
    case 681:                         // ERROR_STOPPED_ON_SYMLINK (not in mingw-w64's winerror.h)
        return FRD_ELOOP;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
        return FRD_ENOTSUP;
    case ERROR_CALL_NOT_IMPLEMENTED:
        return FRD_ENOSYS;
    case ERROR_INVALID_PARAMETER:
    case ERROR_INVALID_LEVEL:
        return FRD_EINVAL;
    case ERROR_INVALID_HANDLE:
        return FRD_EBADF;
    case ERROR_WRITE_PROTECT:
        return FRD_EROFS;
    case ERROR_NOT_READY:
    case ERROR_CRC:
    case ERROR_IO_DEVICE:
    case ERROR_NETNAME_DELETED:
    case ERROR_UNEXP_NET_ERR:
        return FRD_EIO;
    case ERROR_OPERATION_ABORTED:
        return FRD_ECANCELED;
    default:
        return FRD_EUNKNOWN;
    }
}

/** Translates an NTSTATUS through the mapping Windows itself uses for Win32 callers. */
static int win_err_from_ntstatus(NTSTATUS status)
{
    return win_err(RtlNtStatusToDosError(status));
}

/** Converts a WTF-8 name to a NUL-terminated wide string. @return 0 or a negative code. */
static int win_widen(const char *name, WCHAR **out, size_t *units_out)
{
    size_t len = strlen(name);
    size_t bytes;
    if (frd__mul_size(len + 1, sizeof(WCHAR), &bytes) < 0) {
        return FRD_ENOMEM;
    }
    WCHAR *w = frd__malloc(bytes);
    if (w == NULL) {
        return FRD_ENOMEM;
    }
    ptrdiff_t units = frd__wtf8_to_utf16le(name, len, (uint8_t *)w);
    if (units < 0) {
        frd__free(w);
        return FRD_ENOENT; // not WTF-8: no Windows name is spelled that way
    }
    for (ptrdiff_t i = 0; i < units; i++) {
        if (w[i] == L'/') {
            w[i] = L'\\';
        }
    }
    w[units] = 0;
    *out = w;
    *units_out = (size_t)units;
    return 0;
}

/**
 * Opens `w` (relative to parent if valid), the reparse point itself unless `follow`: as a
 * directory to list when `dir`, else any file, to read its attributes.
 */
static int win_open(HANDLE parent, const WCHAR *w, size_t units, bool follow, bool dir, HANDLE *out)
{
    ACCESS_MASK access = dir ? WIN_DIR_ACCESS : (FILE_READ_ATTRIBUTES | SYNCHRONIZE);
    if (parent == FRD_INVALID_FD) {
        DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT);
        HANDLE h = CreateFileW(w, access, WIN_SHARE_ALL, NULL, OPEN_EXISTING, flags, NULL);
        if (h == INVALID_HANDLE_VALUE) {
            return win_err(GetLastError());
        }
        *out = h;
        return 0;
    }
    if (units * sizeof(WCHAR) > 0xFFFE) {
        return FRD_ENAMETOOLONG; // UNICODE_STRING lengths are 16-bit byte counts
    }
    UNICODE_STRING us;
    us.Buffer = (PWSTR)(uintptr_t)w;
    us.Length = (USHORT)(units * sizeof(WCHAR));
    us.MaximumLength = us.Length;
    OBJECT_ATTRIBUTES oa;
    InitializeObjectAttributes(&oa, &us, OBJ_CASE_INSENSITIVE, parent, NULL);
    IO_STATUS_BLOCK iosb;
    ULONG options = (dir ? FILE_DIRECTORY_FILE : 0) | FILE_SYNCHRONOUS_IO_NONALERT |
                    FILE_OPEN_FOR_BACKUP_INTENT | (follow ? 0 : FILE_OPEN_REPARSE_POINT);
    HANDLE h;
    NTSTATUS status =
        NtCreateFile(&h, access, &oa, &iosb, NULL, 0, WIN_SHARE_ALL, FILE_OPEN, options, NULL, 0);
    if (!NT_SUCCESS(status)) {
        return win_err_from_ntstatus(status);
    }
    *out = h;
    return 0;
}

/** Reads a handle's attributes and reparse tag (0 when not a reparse point). */
static int win_attributes(HANDLE h, DWORD *attributes, DWORD *tag)
{
    FILE_ATTRIBUTE_TAG_INFO info;
    if (GetFileInformationByHandleEx(h, FileAttributeTagInfo, &info, sizeof(info))) {
        *attributes = info.FileAttributes;
        *tag = (info.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ? info.ReparseTag : 0;
        return 0;
    }
    // Older systems and some redirectors lack the class: without the tag, treat every
    // reparse point as a link (the cautious reading for a walker).
    BY_HANDLE_FILE_INFORMATION bhfi;
    if (!GetFileInformationByHandle(h, &bhfi)) {
        return win_err(GetLastError());
    }
    *attributes = bhfi.dwFileAttributes;
    *tag = (bhfi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ? IO_REPARSE_TAG_SYMLINK : 0;
    return 0;
}

/**
 * Opens `name` relative to `parent` (without following a reparse point unless `follow`) and
 * reads its attributes and reparse tag: the first steps of both opening a directory and
 * stat'ing a name. @return 0 with *h open and *w the wide name (the caller closes and frees
 * both), or a negative code with neither held (*h INVALID_HANDLE_VALUE, *w NULL).
 */
static int win_open_attributes(HANDLE parent, const char *name, bool follow, bool dir, WCHAR **w,
                               size_t *units, HANDLE *h, DWORD *attributes, DWORD *tag)
{
    *w = NULL;
    *h = INVALID_HANDLE_VALUE;
    int rc = win_widen(name, w, units);
    if (rc == 0) {
        rc = win_open(parent, *w, *units, follow, dir, h);
    }
    if (rc == 0) {
        rc = win_attributes(*h, attributes, tag);
    }
    if (rc < 0) {
        if (*h != INVALID_HANDLE_VALUE) {
            CloseHandle(*h);
            *h = INVALID_HANDLE_VALUE;
        }
        frd__free(*w);
        *w = NULL;
    }
    return rc;
}

int frd__plat_open_dir(frd_os_fd parent, const char *name, unsigned open_flags, frd_os_fd *out)
{
    WCHAR *w;
    size_t units;
    HANDLE h;
    DWORD attributes;
    DWORD tag;
    int rc = win_open_attributes(parent, name, false, true, &w, &units, &h, &attributes, &tag);
    if (rc < 0) {
        return rc;
    }
    if ((attributes & FILE_ATTRIBUTE_REPARSE_POINT) && (tag & FRD__IO_REPARSE_TAG_NAME_SURROGATE)) {
        if (open_flags & FRD_OPEN_NOFOLLOW) {
            rc = FRD_ELOOP;
            goto fail;
        }
        CloseHandle(h);
        h = INVALID_HANDLE_VALUE;
        rc = win_open(parent, w, units, true, true, &h);
        if (rc < 0) {
            goto fail;
        }
        rc = win_attributes(h, &attributes, &tag);
        if (rc < 0) {
            goto fail;
        }
    }
    if (!(attributes & FILE_ATTRIBUTE_DIRECTORY)) {
        rc = FRD_ENOTDIR;
        goto fail;
    }
    frd__free(w);
    *out = h;
    return 0;
fail:
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
    }
    frd__free(w);
    return rc;
}

void frd__plat_close_dir(frd_os_fd fd)
{
    CloseHandle(fd);
}

int frd__plat_read_file_at(frd_os_fd dir, const char *name, bool follow, size_t max, char **buf,
                           size_t *len)
{
    // Not yet on Windows: ignore files and tags read as absent.
    (void)dir;
    (void)name;
    (void)follow;
    (void)max;
    (void)buf;
    (void)len;
    return FRD_ENOENT;
}

const unsigned frd__plat_record_fields = FRD_FIELDS_ALL; // the records carry the metadata

bool frd__plat_force_fallback(bool on)
{
    InterlockedExchange(&win_force_full, on ? 1 : 0);
    return true;
}

/** One listing in progress: the class chain, where it stands, the volume serial. */
struct win_cursor {
    const enum frd__nt_class *chain; // the classes to try, best first
    size_t level;                    // the class in use
    unsigned wanted;                 // enum frd_field bits, FRD_FIELD_TYPE among them
    DWORD serial;                    // volume serial, valid with have_serial
    bool have_serial;
    unsigned *refused; // the volume's refused classes, NULL until known
    bool restart;      // the next call restarts the scan (FRD_LIST_REWIND, first call)
    bool first;        // no buffer was read yet (a refused class may still fall back)
};

/** What a lister remembers between listings. */
#define WIN_VOLUMES 8
struct win_state {
    char *utf8;                    // FRD__UTF8_MAX(buffer / 2) bytes: one name's UTF-8
    DWORD serial[WIN_VOLUMES];     // volumes that refused a class...
    unsigned refused[WIN_VOLUMES]; // ...and which classes (bit per enum frd__nt_class)
    unsigned nvolumes;             // slots in use
    unsigned next_slot;            // the slot to reuse when all are in use
    struct win_cursor cursor;      // the listing in batches (frd__plat_list_batch())
};

static void win_state_free(struct win_state *st)
{
    if (st != NULL) {
        frd__free(st->utf8);
        frd__free(st);
    }
}

void frd__plat_lister_release(struct frd_lister *lister)
{
    win_state_free(lister->backend);
    lister->backend = NULL;
}

static struct win_state *win_state_get(struct frd_lister *lister)
{
    if (lister->backend != NULL) {
        return lister->backend;
    }
    struct win_state *st = frd__calloc(1, sizeof(*st));
    if (st == NULL) {
        return NULL;
    }
    st->utf8 = frd__malloc(FRD__UTF8_MAX(FRD__LISTER_BUFFER_SIZE / 2) + 1);
    if (st->utf8 == NULL) {
        frd__free(st);
        return NULL;
    }
    lister->backend = st;
    return st;
}

/** @return the refused-class bits recorded for a volume, 0 if none. */
static unsigned *win_refused_slot(struct win_state *st, DWORD serial, bool create)
{
    for (unsigned i = 0; i < st->nvolumes; i++) {
        if (st->serial[i] == serial) {
            return &st->refused[i];
        }
    }
    if (!create) {
        return NULL;
    }
    unsigned i = st->nvolumes < WIN_VOLUMES ? st->nvolumes++ : st->next_slot++ % WIN_VOLUMES;
    st->serial[i] = serial;
    st->refused[i] = 0;
    return &st->refused[i];
}

/** The answers that mean "this volume does not do this class", not "this listing failed". */
static bool win_class_refused(DWORD err)
{
    return err == ERROR_INVALID_PARAMETER || err == ERROR_NOT_SUPPORTED ||
           err == ERROR_CALL_NOT_IMPLEMENTED || err == ERROR_INVALID_LEVEL ||
           err == ERROR_INVALID_FUNCTION;
}

static FILE_INFO_BY_HANDLE_CLASS win_class(enum frd__nt_class cls, bool restart)
{
    switch (cls) {
    case FRD__NT_ID_EXTD_DIR_INFO:
        return restart ? FileIdExtdDirectoryRestartInfo : FileIdExtdDirectoryInfo;
    case FRD__NT_ID_BOTH_DIR_INFO:
        return restart ? FileIdBothDirectoryRestartInfo : FileIdBothDirectoryInfo;
    default:
        return restart ? FileFullDirectoryRestartInfo : FileFullDirectoryInfo;
    }
}

/** The enum frd_attr bits Windows reports for every file: compressed and encrypted. */
#define WIN_ATTR_KNOWN (FRD_ATTR_COMPRESSED | FRD_ATTR_ENCRYPTED)

/** enum frd_attr bits from FileAttributes. */
static uint32_t win_attr_bits(uint32_t attributes)
{
    uint32_t out = 0;
    if (attributes & FRD__FILE_ATTRIBUTE_COMPRESSED) {
        out |= FRD_ATTR_COMPRESSED;
    }
    if (attributes & FRD__FILE_ATTRIBUTE_ENCRYPTED) {
        out |= FRD_ATTR_ENCRYPTED;
    }
    return out;
}

/** Appends the records of one buffer. @return entries appended, or a negative code. */
static int win_append_batch(struct frd_lister *lister, struct win_state *st, enum frd__nt_class cls,
                            unsigned wanted, DWORD serial, struct frd_list *list,
                            struct frd__failure *op)
{
    bool names_only = (wanted & ~(unsigned)FRD_FIELD_TYPE) == 0;
    int appended = 0;
    size_t pos = 0;
    struct frd__nt_dirent rec;
    int rc;
    while ((rc = frd__decode_nt_dirinfo(lister->buffer, FRD__LISTER_BUFFER_SIZE, cls, &pos, &rec)) >
           0) {
        size_t n = frd__utf16le_to_utf8(rec.name16, rec.name_units, st->utf8);
        st->utf8[n] = '\0';
        struct frd_entry *e = frd__list_push(list, st->utf8, n);
        if (e == NULL) {
            frd__failure_set(op, "append", FRD_OP_ALLOC);
            return FRD_ENOMEM;
        }
        e->type = frd__type_from_dt(rec.type);
        e->fields = FRD_FIELD_TYPE;
        if (!names_only) {
            e->size = rec.size;
            e->alloc_size = rec.alloc_size;
            e->mtime_ns = rec.mtime_ns;
            e->ctime_ns = rec.ctime_ns;
            e->atime_ns = rec.atime_ns;
            e->btime_ns = rec.btime_ns;
            e->mode = frd__nt_mode(rec.type, rec.attributes);
            e->attributes = win_attr_bits(rec.attributes);
            e->attributes_known = WIN_ATTR_KNOWN;
            e->fields |= FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_MTIME | FRD_FIELD_CTIME |
                         FRD_FIELD_ATIME | FRD_FIELD_BTIME | FRD_FIELD_MODE | FRD_FIELD_ATTRIBUTES;
            if (wanted & FRD_FIELD_DEV) {
                e->dev = serial;
                e->fields |= FRD_FIELD_DEV;
            }
            if (rec.has_id) {
                e->file_id = rec.file_id;
                e->fields |= FRD_FIELD_FILE_ID;
            }
        }
        appended++;
    }
    if (rc < 0) {
        frd__failure_set(op, "GetFileInformationByHandleEx", FRD_OP_READ_DIR);
        return rc;
    }
    return appended;
}

static int win_volume_serial(HANDLE fd, DWORD *serial, struct frd__failure *op)
{
    BY_HANDLE_FILE_INFORMATION bhfi;
    if (!GetFileInformationByHandle(fd, &bhfi)) {
        frd__failure_set(op, "GetFileInformationByHandle", FRD_OP_STAT);
        return win_err(GetLastError());
    }
    *serial = bhfi.dwVolumeSerialNumber;
    return 0;
}

/** Starts a listing of `fd`: picks the class chain and reads the volume serial if needed.
 *  @return 0 or a negative code. */
static int win_cursor_begin(struct frd_lister *lister, struct win_state *st, HANDLE fd,
                            struct win_cursor *c, struct frd__failure *op)
{
    static const enum frd__nt_class full_chain[3] = {
        FRD__NT_ID_EXTD_DIR_INFO, FRD__NT_ID_BOTH_DIR_INFO, FRD__NT_FULL_DIR_INFO};
    static const enum frd__nt_class names_chain[3] = {
        FRD__NT_FULL_DIR_INFO, FRD__NT_ID_BOTH_DIR_INFO, FRD__NT_ID_EXTD_DIR_INFO};
    c->wanted =
        (lister->flags & FRD_LIST_NAMES_ONLY) ? FRD_FIELD_TYPE : (lister->wanted | FRD_FIELD_TYPE);
    // FILE_FULL_DIR_INFO has every field but the file id: the id classes only when wanted.
    c->chain = (c->wanted & FRD_FIELD_FILE_ID) ? full_chain : names_chain;
    // The volume serial is the entries' dev, and the key of what this volume refused. A
    // listing that does not want dev needs it only once some volume has refused a class.
    c->serial = 0;
    c->have_serial = false;
    if ((c->wanted & FRD_FIELD_DEV) || st->nvolumes > 0) {
        int rc = win_volume_serial(fd, &c->serial, op);
        if (rc < 0) {
            return rc;
        }
        c->have_serial = true;
    }
    c->refused = c->have_serial ? win_refused_slot(st, c->serial, false) : NULL;
    unsigned forced =
        win_force_full ? (1u << FRD__NT_ID_EXTD_DIR_INFO) | (1u << FRD__NT_ID_BOTH_DIR_INFO) : 0;
    c->level = 0;
    while (c->level < 3 &&
           (((c->refused ? *c->refused : 0) | forced) & (1u << c->chain[c->level]))) {
        c->level++;
    }
    if (c->level == 3) {
        c->level = 2; // everything refused before: ask again, and report what it says
    }
    c->restart = (lister->flags & FRD_LIST_REWIND) != 0;
    c->first = true;
    return 0;
}

/**
 * Reads one buffer of `fd` and appends its entries.
 * @return entries appended (>= 0, *end false), 0 with *end true at the end, or a code.
 */
static int win_cursor_read(struct frd_lister *lister, struct win_state *st, HANDLE fd,
                           struct win_cursor *c, struct frd_list *list, bool *end,
                           struct frd__failure *op)
{
    *end = false;
    for (;;) {
        enum frd__nt_class cls = c->chain[c->level];
        if (!GetFileInformationByHandleEx(fd, win_class(cls, c->restart && c->first),
                                          lister->buffer, (DWORD)FRD__LISTER_BUFFER_SIZE)) {
            DWORD err = GetLastError();
            if (err == ERROR_NO_MORE_FILES || err == ERROR_FILE_NOT_FOUND) {
                *end = true; // FILE_NOT_FOUND: a drive's root, which has no "." to list
                return 0;
            }
            if (c->first && win_class_refused(err) && c->level < 2) {
                if (!c->have_serial) {
                    int rc = win_volume_serial(fd, &c->serial, op);
                    if (rc < 0) {
                        return rc;
                    }
                    c->have_serial = true;
                }
                if (c->refused == NULL) {
                    c->refused = win_refused_slot(st, c->serial, true);
                }
                *c->refused |= 1u << cls;
                c->level++;
                continue;
            }
            frd__failure_set(op, "GetFileInformationByHandleEx", FRD_OP_READ_DIR);
            return win_err(err);
        }
        c->first = false;
        return win_append_batch(lister, st, cls, c->wanted, c->serial, list, op);
    }
}

int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      struct frd__failure *op)
{
    struct win_state *st = win_state_get(lister);
    if (st == NULL) {
        frd__failure_set(op, "append", FRD_OP_ALLOC);
        return FRD_ENOMEM;
    }
    struct win_cursor c;
    int rc = win_cursor_begin(lister, st, fd, &c, op);
    if (rc < 0) {
        return rc;
    }
    int total = 0;
    for (;;) {
        bool end;
        int got = win_cursor_read(lister, st, fd, &c, list, &end, op);
        if (got < 0 || end) {
            return got < 0 ? got : total;
        }
        if (got > INT32_MAX - total) {
            frd__failure_set(op, "GetFileInformationByHandleEx", FRD_OP_READ_DIR);
            return FRD_EOVERFLOW;
        }
        total += got;
    }
}

int frd__plat_list_batch(struct frd_lister *lister, struct frd_list *list, struct frd__failure *op)
{
    struct win_state *st = win_state_get(lister);
    if (st == NULL) {
        frd__failure_set(op, "append", FRD_OP_ALLOC);
        return FRD_ENOMEM;
    }
    if (!lister->batch_started) {
        int rc = win_cursor_begin(lister, st, lister->batch_fd, &st->cursor, op);
        if (rc < 0) {
            return rc;
        }
        lister->batch_started = true;
    }
    for (;;) {
        bool end;
        int got = win_cursor_read(lister, st, lister->batch_fd, &st->cursor, list, &end, op);
        if (got != 0 || end) {
            return got;
        }
    }
}

void frd__plat_batch_end(struct frd_lister *lister)
{
    (void)lister; // the handle holds the position; the cursor is reset by the next begin
}

// What the walker needs: stat by name, identity and volume class of an open directory.

/** The d_type (enum frd__dt) an open file's attributes and reparse tag give. */
static unsigned char win_dt_of(DWORD attributes, DWORD tag)
{
    if ((attributes & FILE_ATTRIBUTE_REPARSE_POINT) && (tag & FRD__IO_REPARSE_TAG_NAME_SURROGATE)) {
        return FRD__DT_LNK;
    }
    return (attributes & FILE_ATTRIBUTE_DIRECTORY) ? FRD__DT_DIR : FRD__DT_REG;
}

static int64_t win_time(LARGE_INTEGER t)
{
    return frd__filetime_to_unix_ns(t.QuadPart);
}

static int64_t win_filetime(FILETIME t)
{
    return frd__filetime_to_unix_ns((int64_t)((uint64_t)t.dwHighDateTime << 32 | t.dwLowDateTime));
}

int frd__plat_stat_fields(frd_os_fd dir, const char *name, bool follow, unsigned wanted,
                          struct frd_entry *e)
{
    bool names_only = (wanted & ~(unsigned)FRD_FIELD_TYPE) == 0;
    WCHAR *w;
    size_t units;
    HANDLE h;
    DWORD attributes;
    DWORD tag;
    int rc = win_open_attributes(dir, name, follow, false, &w, &units, &h, &attributes, &tag);
    if (rc < 0) {
        return rc;
    }
    unsigned char dt = win_dt_of(attributes, tag);
    e->type = frd__type_from_dt(dt);
    e->fields |= FRD_FIELD_TYPE;
    if (!names_only) {
        BY_HANDLE_FILE_INFORMATION bhfi;
        if (!GetFileInformationByHandle(h, &bhfi)) {
            rc = win_err(GetLastError());
            goto fail;
        }
        e->dev = bhfi.dwVolumeSerialNumber;
        e->nlink = bhfi.nNumberOfLinks;
        e->file_id = (uint64_t)bhfi.nFileIndexHigh << 32 | bhfi.nFileIndexLow;
        e->size = (uint64_t)bhfi.nFileSizeHigh << 32 | bhfi.nFileSizeLow;
        e->mtime_ns = win_filetime(bhfi.ftLastWriteTime);
        e->mode = frd__nt_mode(dt, attributes);
        e->attributes = win_attr_bits(attributes);
        e->attributes_known = WIN_ATTR_KNOWN;
        e->fields |= FRD_FIELD_DEV | FRD_FIELD_NLINK | FRD_FIELD_FILE_ID | FRD_FIELD_SIZE |
                     FRD_FIELD_MTIME | FRD_FIELD_MODE | FRD_FIELD_ATTRIBUTES;
        FILE_BASIC_INFO basic;
        if (GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof(basic))) {
            e->ctime_ns = win_time(basic.ChangeTime);
            e->atime_ns = win_time(basic.LastAccessTime);
            e->btime_ns = win_time(basic.CreationTime);
            e->fields |= FRD_FIELD_CTIME | FRD_FIELD_ATIME | FRD_FIELD_BTIME;
        }
        FILE_STANDARD_INFO standard;
        if (GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof(standard))) {
            e->alloc_size = standard.AllocationSize.QuadPart < 0
                                ? 0
                                : (uint64_t)standard.AllocationSize.QuadPart;
            e->fields |= FRD_FIELD_ALLOC_SIZE;
        }
        if (e->type == FRD_TYPE_DIR) {
            e->size = 0;
        }
    }
    rc = 0;
fail:
    if (h != INVALID_HANDLE_VALUE) {
        CloseHandle(h);
    }
    frd__free(w);
    return rc;
}

int frd__plat_fd_identity(frd_os_fd fd, struct frd__identity *out)
{
    // dev is the 32-bit serial listings report; the id is the 128-bit FILE_ID_INFO one
    // (ReFS needs all of it), split as ino = low half, subvol = high half (0 on NTFS).
    BY_HANDLE_FILE_INFORMATION bhfi;
    if (!GetFileInformationByHandle(fd, &bhfi)) {
        return win_err(GetLastError());
    }
    out->dev = bhfi.dwVolumeSerialNumber;
    out->ino = (uint64_t)bhfi.nFileIndexHigh << 32 | bhfi.nFileIndexLow;
    out->subvol = 0;
    FILE_ID_INFO id;
    if (GetFileInformationByHandleEx(fd, FileIdInfo, &id, sizeof(id))) {
        memcpy(&out->ino, id.FileId.Identifier, 8);
        memcpy(&out->subvol, id.FileId.Identifier + 8, 8);
    }
    return 0;
}

/** The first 8 bytes of a file system's name, little-endian: Windows' "type number". */
static uint64_t win_fs_type(const WCHAR *name)
{
    uint64_t type = 0;
    for (unsigned i = 0; i < 8 && name[i] != 0; i++) {
        type |= (uint64_t)(name[i] & 0xFF) << (8 * i);
    }
    return type;
}

enum frd__vol_class frd__plat_classify_fs_type(uint64_t fs_type)
{
    // Windows has no file system numbers; win_fs_type() makes one from the name that
    // GetVolumeInformationByHandleW reports ("NTFS" happens to be Linux's NTFS magic too).
    switch (fs_type) {
    case 0x5346544Eu: // "NTFS": MFT record numbers, stable
    case 0x53466552u: // "ReFS": 128-bit ids, stable
        return FRD__VOL_STRONG;
    case 0x544146u:           // "FAT": ids from the directory entry's position
    case 0x3233544146u:       // "FAT32"
    case 0x5441467865u:       // "exFAT"
        return FRD__VOL_WEAK; // (and no hard links)
    default:
        return FRD__VOL_UNTRUSTED;
    }
}

int frd__plat_volume_class(frd_os_fd fd, enum frd__vol_class *out)
{
    WCHAR fs[MAX_PATH + 1];
    DWORD flags = 0;
    if (!GetVolumeInformationByHandleW(fd, NULL, 0, NULL, NULL, &flags, fs, MAX_PATH + 1)) {
        return win_err(GetLastError());
    }
    *out = frd__plat_classify_fs_type(win_fs_type(fs));
    return 0;
}

int frd__plat_fd_path(frd_os_fd fd, char *buf, size_t cap)
{
    const DWORD max_units = 32768; // the longest path Windows has
    WCHAR *w = frd__malloc(max_units * sizeof(WCHAR));
    if (w == NULL) {
        return FRD_ENOMEM;
    }
    DWORD n = GetFinalPathNameByHandleW(fd, w, max_units, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    int rc;
    if (n == 0) {
        rc = win_err(GetLastError());
    } else if (n >= max_units || FRD__UTF8_MAX((size_t)n) + 1 > cap) {
        rc = FRD_ENAMETOOLONG;
    } else {
        size_t len = frd__utf16le_to_utf8((const uint8_t *)w, n, buf);
        buf[len] = '\0';
        rc = (int)len;
    }
    frd__free(w);
    return rc;
}

const void *frd__plat_memmem(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
    const unsigned char *h = hay;
    const unsigned char *n = needle;
    // Each place the first byte stands, while the rest still fits.
    for (size_t i = 0; nlen <= hlen && i <= hlen - nlen;) {
        const unsigned char *p = memchr(h + i, n[0], hlen - nlen - i + 1);
        if (p == NULL) {
            return NULL;
        }
        if (memcmp(p, n, nlen) == 0) {
            return p;
        }
        i = (size_t)(p - h) + 1;
    }
    return NULL;
}

char *frd__plat_real_path(const char *path)
{
    (void)path;
    return NULL; // drive letters and '\\': not the '/'-separated form the callers read
}

unsigned frd__plat_fd_limit(void)
{
    return 0; // handles are limited by memory only (about 16 million per process)
}

int frd__plat_room_hold(struct frd__plat_room *room, size_t len)
{
    (void)len;
    room->base = NULL; // no per-process address space limit to leave room under
    room->len = 0;
    return 0;
}

void frd__plat_room_free(struct frd__plat_room *room)
{
    (void)room;
}

int frd__plat_thread_times(struct frd__thread_times *out)
{
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) {
        return win_err(GetLastError());
    }
    uint64_t k = ((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime;
    uint64_t u = ((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime;
    out->cpu_ns = (k + u) * 100u; // 100 ns units
    out->blocks = 0;              // not told here
    out->preemptions = 0;
    out->switches = false;
    return 0;
}

bool frd__plat_mounts_may_cycle(void)
{
    return true; // cannot tell here: every directory is checked
}

bool frd__plat_searches_everything(void)
{
    return true; // traversal is not checked by default (SeChangeNotifyPrivilege)
}

int frd__plat_read_link(frd_os_fd dir, const char *name, size_t hint, char **buf, size_t *cap)
{
    (void)dir;
    (void)name;
    (void)hint;
    (void)buf;
    (void)cap;
    return FRD_ENOTSUP; // reparse-point targets: not yet (frd.h says so)
}

int frd__plat_read_xattrs(frd_os_fd dir, const char *name, bool follow, size_t value_max,
                          struct frd__xattr_buf *b)
{
    (void)dir;
    (void)name;
    (void)follow;
    (void)value_max;
    (void)b;
    return FRD_ENOTSUP; // not yet (frd.h says so)
}
