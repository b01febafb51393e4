// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Pure decoders of kernel directory buffers: bytes in, records out.
 *
 * No syscalls, no allocation, no errno and no OS headers, so every decoder builds and runs
 * on every host and one Linux fuzzer covers every platform's format. Each decoder reads
 * fields with memcpy (no alignment is trusted), checks every length and offset against the
 * buffer it was given, and returns FRD__DECODE_EMALFORMED for a buffer that lies. A
 * returned name points into the caller's buffer; it is never copied.
 */
#ifndef FRD_DECODE_DECODE_H
#define FRD_DECODE_DECODE_H

#include <stddef.h>
#include <stdint.h>

/** Same value as FRD_EMALFORMED in frd.h (checked by a static assertion in lib/). */
#define FRD__DECODE_EMALFORMED (-5001)

/** d_type values of Linux (and macOS) directory records. */
enum frd__dt {
    FRD__DT_UNKNOWN = 0,
    FRD__DT_FIFO = 1,
    FRD__DT_CHR = 2,
    FRD__DT_DIR = 4,
    FRD__DT_BLK = 6,
    FRD__DT_REG = 8,
    FRD__DT_LNK = 10,
    FRD__DT_SOCK = 12,
    FRD__DT_WHT = 14,
};

/** One Linux dirent64 record, decoded. */
struct frd__dirent64 {
    uint64_t ino;       /**< d_ino (not an identity: overlayfs may differ from st_ino) */
    int64_t off;        /**< d_off, an opaque cookie */
    const char *name;   /**< points into the buffer; NUL-terminated there */
    size_t name_len;    /**< bytes before the NUL, at least 1 */
    unsigned char type; /**< d_type, one of enum frd__dt (or any other byte the kernel wrote) */
};

/**
 * Decodes the Linux dirent64 record at offset *pos of buf[0, len), as getdents64 fills it:
 *
 *     0      8      16       18      19
 *     +------+------+--------+-------+--------------------------+---------+
 *     | ino  | off  | reclen | type  | name ... NUL             | padding |
 *     | u64  | s64  | u16    | u8    |                          | to 8    |
 *     +------+------+--------+-------+--------------------------+---------+
 *     |<------------------------- reclen (multiple of 8) ------------------>|
 *
 * @param pos in: the record's offset; out, on success: the next record's offset.
 * @return 1 with *out filled, 0 when *pos == len (no more records), or
 * FRD__DECODE_EMALFORMED when the record lies: reclen zero, below the smallest possible
 * record (24), not a multiple of 8, or past the end; an empty name; no NUL in the record;
 * or *pos beyond len. *pos is not moved on error.
 */
int frd__decode_dirent64(const uint8_t *buf, size_t len, size_t *pos, struct frd__dirent64 *out);

/** The largest dirent64 record: 19 bytes of header, a name of NAME_MAX (255) bytes and its
 *  NUL, rounded up to 8. */
#define FRD__DIRENT64_MAX 280

/* ---------------------------------------------------------------------------------------- */
/* macOS getattrlistbulk records (decode/attrlist.c)                                        */
/* ---------------------------------------------------------------------------------------- */

/** attribute_set_t / the bitmaps of struct attrlist: one 32-bit set per attribute group. */
struct frd__attr_set {
    uint32_t common; /**< ATTR_CMN_* */
    uint32_t vol;    /**< ATTR_VOL_* (must be 0 for getattrlistbulk) */
    uint32_t dir;    /**< ATTR_DIR_* */
    uint32_t file;   /**< ATTR_FILE_* */
    uint32_t fork;   /**< ATTR_FORK_* (must be 0 for getattrlistbulk) */
};

/* The attribute bits the decoder reads (values from xnu bsd/sys/attr.h). */
#define FRD__ATTR_CMN_NAME               0x00000001u /* attrreference_t to the UTF-8 name */
#define FRD__ATTR_CMN_DEVID              0x00000002u /* dev_t (s32) */
#define FRD__ATTR_CMN_FSID               0x00000004u /* fsid_t (2 x s32) */
#define FRD__ATTR_CMN_OBJTYPE            0x00000008u /* fsobj_type_t (u32, enum vtype) */
#define FRD__ATTR_CMN_OBJTAG             0x00000010u /* u32 */
#define FRD__ATTR_CMN_OBJID              0x00000020u /* fsobj_id_t (2 x u32) */
#define FRD__ATTR_CMN_OBJPERMANENTID     0x00000040u /* fsobj_id_t */
#define FRD__ATTR_CMN_PAROBJID           0x00000080u /* fsobj_id_t */
#define FRD__ATTR_CMN_SCRIPT             0x00000100u /* u32 */
#define FRD__ATTR_CMN_CRTIME             0x00000200u /* struct timespec (s64 sec, s64 nsec) */
#define FRD__ATTR_CMN_MODTIME            0x00000400u /* timespec: st_mtimespec */
#define FRD__ATTR_CMN_CHGTIME            0x00000800u /* timespec: st_ctimespec */
#define FRD__ATTR_CMN_ACCTIME            0x00001000u /* timespec */
#define FRD__ATTR_CMN_BKUPTIME           0x00002000u /* timespec */
#define FRD__ATTR_CMN_FNDRINFO           0x00004000u /* 32 bytes */
#define FRD__ATTR_CMN_OWNERID            0x00008000u /* uid_t (u32) */
#define FRD__ATTR_CMN_GRPID              0x00010000u /* gid_t (u32) */
#define FRD__ATTR_CMN_ACCESSMASK         0x00020000u /* u32: st_mode's permission and type bits */
#define FRD__ATTR_CMN_FLAGS              0x00040000u /* u32: st_flags */
#define FRD__ATTR_CMN_GEN_COUNT          0x00080000u /* u32 */
#define FRD__ATTR_CMN_DOCUMENT_ID        0x00100000u /* u32 */
#define FRD__ATTR_CMN_USERACCESS         0x00200000u /* u32 */
#define FRD__ATTR_CMN_FILEID             0x02000000u /* u64: st_ino */
#define FRD__ATTR_CMN_PARENTID           0x04000000u /* u64 */
#define FRD__ATTR_CMN_ADDEDTIME          0x10000000u /* timespec */
#define FRD__ATTR_CMN_ERROR              0x20000000u /* u32 errno of this entry (bulk only) */
#define FRD__ATTR_CMN_DATA_PROTECT_FLAGS 0x40000000u /* u32 */
#define FRD__ATTR_CMN_RETURNED_ATTRS     0x80000000u /* attribute_set_t, always first */

#define FRD__ATTR_DIR_LINKCOUNT     0x00000001u /* u32: hard links to the directory (1 mostly) */
#define FRD__ATTR_DIR_ENTRYCOUNT    0x00000002u /* u32 */
#define FRD__ATTR_DIR_MOUNTSTATUS   0x00000004u /* u32: DIR_MNTSTATUS_MNTPOINT 0x1 */
#define FRD__DIR_MNTSTATUS_MNTPOINT 0x00000001u /* the directory is a mount point */
#define FRD__ATTR_DIR_ALLOCSIZE     0x00000008u /* off_t */
#define FRD__ATTR_DIR_IOBLOCKSIZE   0x00000010u /* u32 */
#define FRD__ATTR_DIR_DATALENGTH    0x00000020u /* off_t */

#define FRD__ATTR_FILE_LINKCOUNT     0x00000001u /* u32: st_nlink */
#define FRD__ATTR_FILE_TOTALSIZE     0x00000002u /* off_t: all forks */
#define FRD__ATTR_FILE_ALLOCSIZE     0x00000004u /* off_t: all forks */
#define FRD__ATTR_FILE_IOBLOCKSIZE   0x00000008u /* u32 */
#define FRD__ATTR_FILE_CLUMPSIZE     0x00000010u /* u32 */
#define FRD__ATTR_FILE_DEVTYPE       0x00000020u /* u32: st_rdev */
#define FRD__ATTR_FILE_DATALENGTH    0x00000200u /* off_t: st_size */
#define FRD__ATTR_FILE_DATAALLOCSIZE 0x00000400u /* off_t: data fork bytes on disk */
#define FRD__ATTR_FILE_RSRCLENGTH    0x00001000u /* off_t */
#define FRD__ATTR_FILE_RSRCALLOCSIZE 0x00002000u /* off_t */

/** st_flags bits (ATTR_CMN_FLAGS) that frd reports as attributes (xnu bsd/sys/stat.h). */
#define FRD__UF_NODUMP     0x00000001u
#define FRD__UF_IMMUTABLE  0x00000002u
#define FRD__UF_APPEND     0x00000004u
#define FRD__UF_COMPRESSED 0x00000020u
#define FRD__SF_IMMUTABLE  0x00020000u
#define FRD__SF_APPEND     0x00040000u

/** Option bit of getattrlistbulk: every requested attribute has its slot, valid or not. */
#define FRD__FSOPT_PACK_INVAL_ATTRS 0x00000008u

/** enum vtype values of ATTR_CMN_OBJTYPE. */
enum frd__vtype {
    FRD__VNON = 0,
    FRD__VREG = 1,
    FRD__VDIR = 2,
    FRD__VBLK = 3,
    FRD__VCHR = 4,
    FRD__VLNK = 5,
    FRD__VSOCK = 6,
    FRD__VFIFO = 7,
};

/**
 * One getattrlistbulk entry, decoded. A field holds data only if its bit is set in
 * `returned` (for an entry with an error, only the name is there). Times are ns since the
 * Unix epoch, saturated at INT64_MIN/INT64_MAX for a date beyond ~2262.
 */
struct frd__attr_entry {
    struct frd__attr_set returned; /**< what the kernel says it filled */
    uint32_t error;                /**< ATTR_CMN_ERROR: errno for this entry, or 0 */
    const char *name;              /**< UTF-8, points into the buffer, NUL-terminated there */
    size_t name_len;               /**< bytes before the NUL, at least 1 */
    int32_t devid;                 /**< ATTR_CMN_DEVID */
    uint32_t objtype;              /**< ATTR_CMN_OBJTYPE, enum frd__vtype */
    int64_t crtime_ns;             /**< ATTR_CMN_CRTIME */
    int64_t atime_ns;              /**< ATTR_CMN_ACCTIME */
    int64_t mtime_ns;              /**< ATTR_CMN_MODTIME */
    int64_t ctime_ns;              /**< ATTR_CMN_CHGTIME */
    uint32_t uid;                  /**< ATTR_CMN_OWNERID */
    uint32_t gid;                  /**< ATTR_CMN_GRPID */
    uint32_t accessmask;           /**< ATTR_CMN_ACCESSMASK (mode bits) */
    uint32_t flags;                /**< ATTR_CMN_FLAGS */
    uint64_t fileid;               /**< ATTR_CMN_FILEID */
    uint32_t dir_linkcount;        /**< ATTR_DIR_LINKCOUNT */
    uint32_t dir_entrycount;       /**< ATTR_DIR_ENTRYCOUNT */
    uint32_t dir_mountstatus;      /**< ATTR_DIR_MOUNTSTATUS */
    uint64_t dir_allocsize;        /**< ATTR_DIR_ALLOCSIZE */
    uint64_t dir_datalength;       /**< ATTR_DIR_DATALENGTH */
    uint32_t file_linkcount;       /**< ATTR_FILE_LINKCOUNT */
    uint64_t file_totalsize;       /**< ATTR_FILE_TOTALSIZE */
    uint64_t file_allocsize;       /**< ATTR_FILE_ALLOCSIZE */
    uint32_t file_devtype;         /**< ATTR_FILE_DEVTYPE */
    uint64_t file_datalength;      /**< ATTR_FILE_DATALENGTH */
    uint64_t file_dataallocsize;   /**< ATTR_FILE_DATAALLOCSIZE */
};

/**
 * Says whether the decoder can decode entries of a getattrlistbulk request: it must ask
 * for ATTR_CMN_RETURNED_ATTRS and ATTR_CMN_NAME (the kernel insists on both), no volume or
 * fork attributes, and only attributes whose sizes the decoder knows (the FRD__ATTR_* bits).
 */
int frd__attr_request_ok(const struct frd__attr_set *request);

/**
 * Decodes the getattrlistbulk entry at offset *pos of buf[0, len):
 *
 *     0        4                24         28           36
 *     +--------+----------------+----------+------------+---------------- - - +--------+
 *     | length | returned attrs | error    | name ref   | other fixed attrs   | name   |
 *     | u32    | 5 x u32        | u32 (if  | s32 offset | in ascending bit    | UTF-8  |
 *     |        |                | present) | u32 length | order, 4-aligned    | + NUL  |
 *     +--------+----------------+----------+------------+---------------- - - +--------+
 *
 * The fixed attributes present are those of `returned`, or, with FSOPT_PACK_INVAL_ATTRS in
 * `options`, every requested one; common, then directory, then file attributes, each group
 * in ascending bit order, except that ATTR_CMN_RETURNED_ATTRS comes first and
 * ATTR_CMN_ERROR right after it. The name reference's offset is relative to the reference
 * itself. `length` covers the whole entry; the kernel pads it to 8 bytes except at the end
 * of the buffer, so the next entry starts at *pos + length.
 *
 * @param request the attributes asked for; frd__attr_request_ok() must accept it.
 * @param options the getattrlistbulk options (only FSOPT_PACK_INVAL_ATTRS matters here).
 * @return 1 with *out filled and *pos moved past the entry; 0 when *pos == len; or
 * FRD__DECODE_EMALFORMED (*pos not moved) when: the request is not accepted, the entry is
 * shorter than its header or runs past len, a returned bit was not requested, the fixed
 * attributes run past the entry, the name is absent, empty, outside the entry or lacks
 * its NUL (or has one inside), or a timespec's nanoseconds are outside [0, 1e9).
 */
int frd__decode_attr_entry(const uint8_t *buf, size_t len, size_t *pos,
                           const struct frd__attr_set *request, uint32_t options,
                           struct frd__attr_entry *out);

/* ---------------------------------------------------------------------------------------- */
/* macOS getdirentries64 records (decode/direntry.c)                                        */
/* ---------------------------------------------------------------------------------------- */

/** One macOS struct direntry (getdirentries64), decoded. */
struct frd__direntry {
    uint64_t ino;       /**< d_ino */
    uint64_t seekoff;   /**< d_seekoff, an opaque cookie */
    const char *name;   /**< points into the buffer; NUL-terminated there */
    size_t name_len;    /**< d_namlen, at least 1 */
    unsigned char type; /**< d_type, enum frd__dt */
};

/** Buffers at least this large get the flags word in their last 4 bytes (xnu). */
#define FRD__GETDIRENTRIES64_EXTENDED_BUFSIZE 1024u
/** Flag in that word: the directory has no more entries. */
#define FRD__GETDIRENTRIES64_EOF 1u

/**
 * Checks a getdirentries64 result and reads its end-of-directory flag. For a buffer of
 * at least FRD__GETDIRENTRIES64_EXTENDED_BUFSIZE bytes the kernel keeps the last 4 bytes
 * for a flags word (getdirentries64_flags_t) and fills at most bufsize - 4 bytes of records.
 * @param nread the byte count the call returned.
 * @return 1 if the flags say end of directory, 0 if not (or the buffer is too small to
 * carry flags), FRD__DECODE_EMALFORMED if nread does not fit in the space for records.
 */
int frd__direntry_eof(const uint8_t *buf, size_t bufsize, size_t nread);

/**
 * Decodes the struct direntry at offset *pos of buf[0, len):
 *
 *     0      8         16       18       20     21
 *     +------+---------+--------+--------+------+------------------+---------+
 *     | ino  | seekoff | reclen | namlen | type | name ... NUL     | padding |
 *     | u64  | u64     | u16    | u16    | u8   |                  | to 8    |
 *     +------+---------+--------+--------+------+------------------+---------+
 *
 * @return 1 with *out filled and *pos moved by reclen, 0 when *pos == len, or
 * FRD__DECODE_EMALFORMED (*pos not moved) when: fewer than 24 bytes remain, reclen is not
 * a multiple of 8, runs past len or cannot hold 21 + namlen + 1 bytes, namlen is 0, the
 * byte after the name is not NUL or the name holds a NUL.
 */
int frd__decode_direntry(const uint8_t *buf, size_t len, size_t *pos, struct frd__direntry *out);

/* ---------------------------------------------------------------------------------------- */
/* Windows directory information records (decode/nt_dirinfo.c)                              */
/* ---------------------------------------------------------------------------------------- */

/** The record formats GetFileInformationByHandleEx / NtQueryDirectoryFile fill. */
enum frd__nt_class {
    FRD__NT_FULL_DIR_INFO = 0,    /**< FILE_FULL_DIR_INFO: no file id (72-byte header) */
    FRD__NT_ID_BOTH_DIR_INFO = 1, /**< FILE_ID_BOTH_DIR_INFO: 64-bit id (112-byte header) */
    FRD__NT_ID_EXTD_DIR_INFO = 2, /**< FILE_ID_EXTD_DIR_INFO: 128-bit id (96-byte header) */
};

/** FileAttributes bits the decoder and the Windows backend read. */
#define FRD__FILE_ATTRIBUTE_READONLY      0x00000001u
#define FRD__FILE_ATTRIBUTE_DIRECTORY     0x00000010u
#define FRD__FILE_ATTRIBUTE_COMPRESSED    0x00000800u
#define FRD__FILE_ATTRIBUTE_ENCRYPTED     0x00004000u
#define FRD__FILE_ATTRIBUTE_REPARSE_POINT 0x00000400u
/** Reparse tags: junction (and volume mount point), symbolic link, WSL special files. */
#define FRD__IO_REPARSE_TAG_MOUNT_POINT 0xA0000003u
#define FRD__IO_REPARSE_TAG_SYMLINK     0xA000000Cu
#define FRD__IO_REPARSE_TAG_AF_UNIX     0x80000023u
#define FRD__IO_REPARSE_TAG_LX_FIFO     0x80000024u
#define FRD__IO_REPARSE_TAG_LX_CHR      0x80000025u
#define FRD__IO_REPARSE_TAG_LX_BLK      0x80000026u
/** Tags with this bit name another file (IsReparseTagNameSurrogate): links, to frd. */
#define FRD__IO_REPARSE_TAG_NAME_SURROGATE 0x20000000u

/** One directory record of any of the three classes, decoded. */
struct frd__nt_dirent {
    const uint8_t *name16;  /**< UTF-16LE name inside the buffer, not NUL-terminated */
    size_t name_units;      /**< length of name16 in UTF-16 code units, at least 1 */
    int64_t btime_ns;       /**< CreationTime, ns since the Unix epoch (saturated) */
    int64_t atime_ns;       /**< LastAccessTime */
    int64_t mtime_ns;       /**< LastWriteTime */
    int64_t ctime_ns;       /**< ChangeTime */
    uint64_t size;          /**< EndOfFile (negative values read as 0) */
    uint64_t alloc_size;    /**< AllocationSize (negative values read as 0) */
    uint32_t attributes;    /**< FileAttributes */
    uint32_t reparse_tag;   /**< the reparse tag if FILE_ATTRIBUTE_REPARSE_POINT, else 0 */
    uint64_t file_id;       /**< the file id if it fits 64 bits, else 0 */
    uint8_t file_id128[16]; /**< the whole id, little-endian (FileId of ID_BOTH widened) */
    unsigned char has_id;   /**< 1 if the class carries an id and it fits 64 bits */
    unsigned char type;     /**< enum frd__dt, from the attributes and the reparse tag */
};

/**
 * Decodes the next record of a directory-information buffer of class `cls`, skipping "."
 * and "..". Every class starts with the same 64-byte prefix:
 *
 *     0                4           8              16            24             32
 *     +----------------+-----------+--------------+-------------+--------------+
 *     | NextEntryOffset| FileIndex | CreationTime | LastAccess  | LastWrite    | ...
 *     | u32 (0: last)  | u32       | s64 FILETIME | s64         | s64 (mtime)  |
 *     +----------------+-----------+--------------+-------------+--------------+
 *     32           40          48               56           60                64
 *     | ChangeTime | EndOfFile | AllocationSize | Attributes | FileNameLength  | EaSize
 *     | s64        | s64       | s64            | u32        | u32 (bytes)     | u32
 *
 * then FULL: FileName @68; ID_BOTH: ShortNameLength @68, ShortName[12] @70, FileId s64 @96,
 * FileName @104; ID_EXTD: ReparsePointTag @68, FileId[16] @72, FileName @88. For FULL and
 * ID_BOTH, EaSize holds the reparse tag when FILE_ATTRIBUTE_REPARSE_POINT is set (MS-FSA).
 * The name is UTF-16LE, FileNameLength bytes, not NUL-terminated. Times are FILETIME (100 ns
 * since 1601-01-01 UTC): unix_ns = (t - 116444736000000000) * 100, saturated.
 *
 * The type: a reparse point whose tag is a name surrogate (symlink, junction, ...) is a
 * link; the WSL tags are a socket, fifo, character or block device; any other reparse
 * point (cloud files, dedup) is what its directory bit says, as Explorer shows it; without
 * a reparse point, a directory or a regular file.
 *
 * @param buf the buffer as the call filled it: records are chained by NextEntryOffset
 * from offset 0, so `len` is the buffer's size, not a byte count.
 * @param pos in: the offset of the next record (0 for a fresh buffer); out: the offset of
 * the record after the one returned, or len after the last one.
 * @return 1 with *out filled; 0 when *pos == len (no more records); or
 * FRD__DECODE_EMALFORMED (*pos not moved) when: cls is unknown; the header or the name
 * runs past len; FileNameLength is 0 or odd; NextEntryOffset is not a multiple of 8, is
 * smaller than the record or leaves no room for another header before len.
 */
int frd__decode_nt_dirinfo(const uint8_t *buf, size_t len, enum frd__nt_class cls, size_t *pos,
                           struct frd__nt_dirent *out);

/**
 * The Unix mode a Windows entry shows: the type bits of `dt` (enum frd__dt; S_IFMT values
 * are the d_type values shifted left by 12, so a fifo is 0010000 and a regular file
 * 0100000) and permissions synthesized from the attributes, as Cygwin does without ACLs:
 * 0444 with FILE_ATTRIBUTE_READONLY, else 0666, plus 0111 for a directory; a link is 0777.
 * An unknown type gives permission bits only.
 */
uint32_t frd__nt_mode(unsigned char dt, uint32_t attributes);

/** Converts a FILETIME value to ns since the Unix epoch, saturating out-of-range values. */
int64_t frd__filetime_to_unix_ns(int64_t filetime);

/* ---------------------------------------------------------------------------------------- */
/* UTF-16LE to UTF-8 (decode/utf16.c scalar, decode/utf16_simd.c SSE2 + AVX2)               */
/* ---------------------------------------------------------------------------------------- */

/** Bytes of UTF-8 that `units` UTF-16 code units can need at most (3 per unit). */
#define FRD__UTF8_MAX(units) ((units)*3)

/**
 * Converts `units` UTF-16LE code units at src (any alignment; exactly 2 * units bytes are
 * read) to UTF-8 at dst, which must hold FRD__UTF8_MAX(units) bytes. No NUL is written.
 *
 * Every input converts, so every Windows name round-trips: a valid surrogate pair becomes
 * one 4-byte sequence, and an unpaired surrogate (NTFS allows them in names) becomes the
 * 3-byte generalized UTF-8 sequence of its value (ED A0..BF 80..BF), which is WTF-8
 * (https://simonsapin.github.io/wtf-8/). Such a name is not valid UTF-8; frd__wtf8_to_utf16le()
 * turns it back into the same code units. A NUL code unit becomes a 0 byte.
 *
 * This entry point picks the AVX2, SSE2 or scalar version by the CPU it runs on (or always
 * the scalar one when built with FRD_UTF16_SCALAR). All versions give identical output.
 * @return the number of bytes written.
 */
size_t frd__utf16le_to_utf8(const uint8_t *src, size_t units, char *dst);

/** The portable version: one code point at a time. */
size_t frd__utf16le_to_utf8_scalar(const uint8_t *src, size_t units, char *dst);

/** Which frd__utf16le_to_utf8 versions exist in this build and run on this CPU. */
enum frd__utf16_impl {
    FRD__UTF16_SCALAR = 0,
    FRD__UTF16_SSE2 = 1,
    FRD__UTF16_AVX2 = 2,
};

/** @return 1 if the version can run here (built in and supported by the CPU), else 0. */
int frd__utf16_impl_available(enum frd__utf16_impl impl);

/**
 * Runs one given version (tests and benchmarks compare them). The caller checks
 * frd__utf16_impl_available() first; an unavailable version falls back to the scalar one.
 */
size_t frd__utf16le_to_utf8_impl(enum frd__utf16_impl impl, const uint8_t *src, size_t units,
                                 char *dst);

/**
 * The inverse, for opening names on Windows: WTF-8 (UTF-8 plus encoded lone surrogates) at
 * src[0, len) to UTF-16LE code units at dst, which must hold `len` units (each byte gives
 * at most one unit). No NUL is written.
 * @return the number of code units written, or FRD__DECODE_EMALFORMED for bytes that are
 * not WTF-8: a stray or missing continuation byte, an overlong form, a value above
 * U+10FFFF, or a lead surrogate followed by a trail surrogate in 3-byte form (WTF-8
 * requires the 4-byte form for a pair).
 */
ptrdiff_t frd__wtf8_to_utf16le(const char *src, size_t len, uint8_t *dst);

#endif // FRD_DECODE_DECODE_H
