// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of the pure getattrlistbulk entry decoder, on synthetic buffers, and of what the
 * macOS backend makes of its records (platform/attr_entry.h: requests and entries).
 */
#include "attr_entry.h"
#include "attrlist_encoder.h"
#include "decode.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/** What platform/darwin.c asks for in a full listing (checked against
 *  frd__attr_request_for(FRD_FIELDS_ALL) below). */
static const struct frd__attr_set full_request = {
    FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_ERROR | FRD__ATTR_CMN_DEVID |
        FRD__ATTR_CMN_OBJTYPE | FRD__ATTR_CMN_CRTIME | FRD__ATTR_CMN_MODTIME |
        FRD__ATTR_CMN_CHGTIME | FRD__ATTR_CMN_ACCTIME | FRD__ATTR_CMN_OWNERID |
        FRD__ATTR_CMN_GRPID | FRD__ATTR_CMN_ACCESSMASK | FRD__ATTR_CMN_FLAGS | FRD__ATTR_CMN_FILEID,
    0, FRD__ATTR_DIR_LINKCOUNT | FRD__ATTR_DIR_MOUNTSTATUS,
    FRD__ATTR_FILE_LINKCOUNT | FRD__ATTR_FILE_DEVTYPE | FRD__ATTR_FILE_DATALENGTH |
        FRD__ATTR_FILE_DATAALLOCSIZE,
    0};

static struct attr_values file_values(const char *name)
{
    struct attr_values v;
    memset(&v, 0, sizeof(v));
    v.returned = full_request;
    v.returned.dir = 0;
    v.name = name;
    v.devid = 0x1000004;
    v.objtype = FRD__VREG;
    v.mtime_sec = 1700000000;
    v.mtime_nsec = 123456789;
    v.ctime_sec = -2;
    v.ctime_nsec = 5;
    v.crtime_sec = 1600000000;
    v.crtime_nsec = 7;
    v.atime_sec = 1700000001;
    v.atime_nsec = 999999999;
    v.uid = 501;
    v.gid = 20;
    v.flags = FRD__UF_NODUMP | FRD__SF_APPEND;
    v.accessmask = 0100644;
    v.fileid = 0x123456789abcULL;
    v.file_linkcount = 3;
    v.file_datalength = 4096 + 17;
    v.file_dataallocsize = 8192;
    return v;
}

static struct attr_values dir_values(const char *name)
{
    struct attr_values v = file_values(name);
    v.returned = full_request;
    v.returned.file = 0;
    v.objtype = FRD__VDIR;
    v.dir_linkcount = 1;
    v.dir_mountstatus = 1;
    return v;
}

static void expect_file(const struct frd__attr_entry *e, const char *name)
{
    assert_int_equal(e->error, 0);
    assert_int_equal(e->name_len, strlen(name));
    assert_memory_equal(e->name, name, e->name_len + 1);
    assert_int_equal(e->devid, 0x1000004);
    assert_int_equal(e->objtype, FRD__VREG);
    assert_int_equal(e->mtime_ns, INT64_C(1700000000123456789));
    assert_int_equal(e->ctime_ns, INT64_C(-1999999995));
    assert_int_equal(e->crtime_ns, INT64_C(1600000000000000007));
    assert_int_equal(e->atime_ns, INT64_C(1700000001999999999));
    assert_int_equal(e->uid, 501);
    assert_int_equal(e->gid, 20);
    assert_int_equal(e->flags, FRD__UF_NODUMP | FRD__SF_APPEND);
    assert_int_equal(e->accessmask, 0100644);
    assert_int_equal(e->fileid, 0x123456789abcULL);
    assert_int_equal(e->file_linkcount, 3);
    assert_int_equal(e->file_datalength, 4096 + 17);
    assert_int_equal(e->file_dataallocsize, 8192);
    assert_int_equal(e->returned.dir, 0);
}

static void test_attrlist_file_dir_and_error_entries_decode(void **state)
{
    (void)state;
    uint8_t buf[1024];
    struct attr_values f = file_values("file.txt");
    struct attr_values d = dir_values("a directory");
    struct attr_values err;
    memset(&err, 0, sizeof(err));
    err.returned.common = FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_ERROR;
    err.error = 13; // EACCES
    err.name = "secret";
    size_t len = attr_enc_entry(buf, 0, &full_request, 0, &f, 0, NULL);
    len = attr_enc_entry(buf, len, &full_request, 0, &d, 0, NULL);
    len = attr_enc_entry(buf, len, &full_request, 0, &err, 1, NULL); // last: unpadded
    size_t pos = 0;
    struct frd__attr_entry e;
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 1);
    expect_file(&e, "file.txt");
    assert_int_equal(pos % 8, 0);
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 1);
    assert_string_equal(e.name, "a directory");
    assert_int_equal(e.objtype, FRD__VDIR);
    assert_int_equal(e.dir_linkcount, 1);
    assert_int_equal(e.dir_mountstatus, 1);
    assert_int_equal(e.file_datalength, 0);
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 1);
    assert_string_equal(e.name, "secret");
    assert_int_equal(e.error, 13);
    assert_int_equal(e.fileid, 0);
    assert_int_equal(e.returned.common & FRD__ATTR_CMN_FILEID, 0);
    assert_int_equal(pos, len);
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 0);
}

static void
test_attrlist_attributes_the_volume_lacks_are_absent_and_later_ones_move_up(void **state)
{
    (void)state;
    // A volume without change times or file ids (say msdos): those fields are left out and
    // the access mask and link count sit where the change time would have been.
    uint8_t buf[512];
    struct attr_values f = file_values("x");
    f.returned.common &= ~(FRD__ATTR_CMN_CHGTIME | FRD__ATTR_CMN_FILEID);
    size_t len = attr_enc_entry(buf, 0, &full_request, 0, &f, 0, NULL);
    size_t pos = 0;
    struct frd__attr_entry e;
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 1);
    assert_int_equal(e.ctime_ns, 0);
    assert_int_equal(e.fileid, 0);
    assert_int_equal(e.accessmask, 0100644);
    assert_int_equal(e.file_linkcount, 3);
    assert_int_equal(e.file_datalength, 4096 + 17);
    assert_int_equal(pos, len);
}

static void test_attrlist_pack_inval_keeps_every_slot(void **state)
{
    (void)state;
    uint8_t buf[512];
    struct attr_values f = file_values("packed");
    f.returned.common &= ~FRD__ATTR_CMN_DEVID;
    size_t len = attr_enc_entry(buf, 0, &full_request, 1, &f, 0, NULL);
    size_t pos = 0;
    struct frd__attr_entry e;
    assert_int_equal(
        frd__decode_attr_entry(buf, len, &pos, &full_request, FRD__FSOPT_PACK_INVAL_ATTRS, &e), 1);
    assert_int_equal(e.devid, 0);
    assert_int_equal(e.objtype, FRD__VREG);
    assert_int_equal(e.file_datalength, 4096 + 17);
    assert_string_equal(e.name, "packed");
    // The same bytes read as an omitted layout put every field in the wrong place: the
    // decoder must not accept them as the same entry.
    pos = 0;
    int rc = frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e);
    assert_true(rc == FRD__DECODE_EMALFORMED || e.objtype != FRD__VREG);
}

static void test_attrlist_other_known_attributes_are_skipped_by_size(void **state)
{
    (void)state;
    struct frd__attr_set req = full_request;
    req.common |= FRD__ATTR_CMN_FSID | FRD__ATTR_CMN_CRTIME | FRD__ATTR_CMN_FNDRINFO |
                  FRD__ATTR_CMN_PARENTID | FRD__ATTR_CMN_ADDEDTIME;
    req.file |= FRD__ATTR_FILE_TOTALSIZE | FRD__ATTR_FILE_RSRCLENGTH;
    struct attr_values f = file_values("skipper");
    f.returned.common = req.common;
    f.returned.file = req.file;
    uint8_t buf[512];
    size_t len = attr_enc_entry(buf, 0, &req, 0, &f, 0, NULL);
    size_t pos = 0;
    struct frd__attr_entry e;
    // The encoder fills the fields it does not know with 0x5A (ADDEDTIME's "timespec" has
    // nanoseconds out of range): the decoder must skip them by size without reading them.
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &req, 0, &e), 1);
    expect_file(&e, "skipper");
}

static void test_attrlist_request_rules(void **state)
{
    (void)state;
    struct frd__attr_set ok = full_request;
    assert_true(frd__attr_request_ok(&ok));
    struct frd__attr_set bad = ok;
    bad.common &= ~FRD__ATTR_CMN_NAME;
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.common &= ~FRD__ATTR_CMN_RETURNED_ATTRS;
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.vol = 1;
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.fork = 1;
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.common |= 0x00400000u; // EXTENDED_SECURITY: variable, not in the table
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.file |= 0x00000800u; // DATAEXTENTS
    assert_false(frd__attr_request_ok(&bad));
    bad = ok;
    bad.dir |= 0x00000040u;
    assert_false(frd__attr_request_ok(&bad));
}

/** A malformation: how to spoil a good one-file buffer. */
struct attr_case {
    const char *what;
    void (*spoil)(uint8_t *buf, size_t *len, size_t ref_at, struct frd__attr_set *req,
                  uint32_t *options);
};

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void spoil_length_below_header(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                      uint32_t *o)
{
    (void)len, (void)r, (void)q, (void)o;
    put32(b, 20);
}
static void spoil_length_past_end(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                  uint32_t *o)
{
    (void)r, (void)q, (void)o;
    put32(b, (uint32_t)*len + 8);
}
static void spoil_buffer_shorter_than_header(uint8_t *b, size_t *len, size_t r,
                                             struct frd__attr_set *q, uint32_t *o)
{
    (void)b, (void)r, (void)q, (void)o;
    *len = 10;
}
static void spoil_returned_unrequested_common(uint8_t *b, size_t *len, size_t r,
                                              struct frd__attr_set *q, uint32_t *o)
{
    (void)len, (void)r, (void)o;
    put32(b + 4, q->common | FRD__ATTR_CMN_SCRIPT);
}
static void spoil_returned_vol(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                               uint32_t *o)
{
    (void)len, (void)r, (void)q, (void)o;
    put32(b + 8, 1);
}
static void spoil_returned_fork(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                uint32_t *o)
{
    (void)len, (void)r, (void)q, (void)o;
    put32(b + 20, 1);
}
static void spoil_returned_unrequested_dir(uint8_t *b, size_t *len, size_t r,
                                           struct frd__attr_set *q, uint32_t *o)
{
    (void)len, (void)r, (void)q, (void)o;
    put32(b + 12, FRD__ATTR_DIR_ENTRYCOUNT);
}
static void spoil_returned_unrequested_file(uint8_t *b, size_t *len, size_t r,
                                            struct frd__attr_set *q, uint32_t *o)
{
    (void)len, (void)r, (void)o;
    put32(b + 16, q->file | FRD__ATTR_FILE_CLUMPSIZE);
}
static void spoil_name_offset_negative(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                       uint32_t *o)
{
    (void)len, (void)q, (void)o;
    put32(b + r, (uint32_t)-8);
}
static void spoil_name_offset_into_fixed_fields(uint8_t *b, size_t *len, size_t r,
                                                struct frd__attr_set *q, uint32_t *o)
{
    (void)len, (void)q, (void)o;
    put32(b + r, 8);
}
static void spoil_name_offset_past_entry(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                         uint32_t *o)
{
    (void)q, (void)o;
    put32(b + r, (uint32_t)(*len - r + 4));
}
static void spoil_name_length_past_entry(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                         uint32_t *o)
{
    (void)q, (void)o;
    put32(b + r + 4, (uint32_t)*len);
}
static void spoil_name_length_zero(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                   uint32_t *o)
{
    (void)len, (void)q, (void)o;
    put32(b + r + 4, 0);
}
static void spoil_name_empty(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                             uint32_t *o)
{
    (void)len, (void)q, (void)o;
    put32(b + r + 4, 1);
}
static void spoil_name_without_nul(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                   uint32_t *o)
{
    (void)len, (void)q, (void)o;
    uint32_t off;
    memcpy(&off, b + r, 4);
    b[r + off + 4] = 'X'; // the NUL of "name"
}
static void spoil_name_with_inner_nul(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                      uint32_t *o)
{
    (void)len, (void)q, (void)o;
    uint32_t off;
    memcpy(&off, b + r, 4);
    b[r + off + 1] = 0;
}
static void spoil_name_not_returned(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                    uint32_t *o)
{
    (void)len, (void)r, (void)o;
    // Only RETURNED and ERROR: no name at all (the layout shrinks accordingly).
    put32(b + 4, FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_ERROR);
    put32(b + 12, 0);
    put32(b + 16, 0);
    (void)q;
}
static void spoil_fixed_fields_past_entry(uint8_t *b, size_t *len, size_t r,
                                          struct frd__attr_set *q, uint32_t *o)
{
    (void)len, (void)r, (void)q, (void)o;
    put32(b, 4 + 20 + 4 + 4); // room for the error and half the name reference
}
static void spoil_request_without_name(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                       uint32_t *o)
{
    (void)b, (void)len, (void)r, (void)o;
    q->common &= ~FRD__ATTR_CMN_NAME;
}
static void spoil_request_unknown_attribute(uint8_t *b, size_t *len, size_t r,
                                            struct frd__attr_set *q, uint32_t *o)
{
    (void)b, (void)len, (void)r, (void)o;
    q->common |= 0x08000000u; // FULLPATH
}
static void spoil_nanoseconds_too_large(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                        uint32_t *o)
{
    (void)len, (void)q, (void)o;
    int64_t ns = 1000000000;
    memcpy(b + r + 8 + 4 + 4 + 8, &ns, 8); // name ref, devid, objtype, mtime.tv_sec
}
static void spoil_nanoseconds_negative(uint8_t *b, size_t *len, size_t r, struct frd__attr_set *q,
                                       uint32_t *o)
{
    (void)len, (void)q, (void)o;
    int64_t ns = -1;
    memcpy(b + r + 8 + 4 + 4 + 16 + 8, &ns, 8); // ctime.tv_nsec
}
static void spoil_pack_inval_claimed_for_omitted_layout(uint8_t *b, size_t *len, size_t r,
                                                        struct frd__attr_set *q, uint32_t *o)
{
    (void)b, (void)len, (void)r;
    // The entry is a file: with every requested slot the dir fields would be there too, so
    // the fixed part no longer fits before the name.
    *o = FRD__FSOPT_PACK_INVAL_ATTRS;
    q->dir |= FRD__ATTR_DIR_ALLOCSIZE | FRD__ATTR_DIR_DATALENGTH | FRD__ATTR_DIR_ENTRYCOUNT;
}

static const struct attr_case attr_cases[] = {
    {"length below header", spoil_length_below_header},
    {"length past end", spoil_length_past_end},
    {"buffer shorter than header", spoil_buffer_shorter_than_header},
    {"returned unrequested common", spoil_returned_unrequested_common},
    {"returned vol", spoil_returned_vol},
    {"returned fork", spoil_returned_fork},
    {"returned unrequested dir", spoil_returned_unrequested_dir},
    {"returned unrequested file", spoil_returned_unrequested_file},
    {"name offset negative", spoil_name_offset_negative},
    {"name offset into fixed fields", spoil_name_offset_into_fixed_fields},
    {"name offset past entry", spoil_name_offset_past_entry},
    {"name length past entry", spoil_name_length_past_entry},
    {"name length zero", spoil_name_length_zero},
    {"name empty", spoil_name_empty},
    {"name without NUL", spoil_name_without_nul},
    {"name with inner NUL", spoil_name_with_inner_nul},
    {"name not returned", spoil_name_not_returned},
    {"fixed fields past entry", spoil_fixed_fields_past_entry},
    {"request without name", spoil_request_without_name},
    {"request with unknown attribute", spoil_request_unknown_attribute},
    {"nanoseconds too large", spoil_nanoseconds_too_large},
    {"nanoseconds negative", spoil_nanoseconds_negative},
    {"pack-inval claimed for omitted layout", spoil_pack_inval_claimed_for_omitted_layout},
};

static void test_attrlist_every_malformation_is_malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(attr_cases) / sizeof(attr_cases[0]); i++) {
        uint8_t buf[512];
        memset(buf, 0, sizeof(buf));
        struct attr_values f = file_values("name");
        size_t ref_at;
        size_t len = attr_enc_entry(buf, 0, &full_request, 0, &f, 0, &ref_at);
        struct frd__attr_set req = full_request;
        uint32_t options = 0;
        size_t pos = 0;
        struct frd__attr_entry e;
        // Sanity: the unspoilt entry decodes.
        assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &req, options, &e), 1);
        pos = 0;
        attr_cases[i].spoil(buf, &len, ref_at, &req, &options);
        int rc = frd__decode_attr_entry(buf, len, &pos, &req, options, &e);
        if (rc != FRD__DECODE_EMALFORMED) {
            fail_msg("case '%s': got %d, not FRD__DECODE_EMALFORMED", attr_cases[i].what, rc);
        }
        assert_int_equal(pos, 0);
    }
}

static void test_attrlist_position_past_end_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[256];
    struct attr_values f = file_values("n");
    size_t len = attr_enc_entry(buf, 0, &full_request, 0, &f, 0, NULL);
    size_t pos = len + 8;
    struct frd__attr_entry e;
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e),
                     FRD__DECODE_EMALFORMED);
}

static void test_attrlist_times_beyond_int64_ns_saturate(void **state)
{
    (void)state;
    uint8_t buf[256];
    struct attr_values f = file_values("old");
    f.mtime_sec = INT64_MAX / 1000;
    f.ctime_sec = INT64_MIN / 1000;
    size_t len = attr_enc_entry(buf, 0, &full_request, 0, &f, 0, NULL);
    size_t pos = 0;
    struct frd__attr_entry e;
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, &full_request, 0, &e), 1);
    assert_int_equal(e.mtime_ns, INT64_MAX);
    assert_int_equal(e.ctime_ns, INT64_MIN);
}

static void test_attr_request_for_asks_only_what_is_wanted(void **state)
{
    (void)state;
    struct frd__attr_set req;
    frd__attr_request_for(FRD_FIELDS_ALL, &req);
    assert_memory_equal(&req, &full_request, sizeof(req));
    assert_true(frd__attr_request_ok(&req));
    frd__attr_request_for(FRD_FIELD_TYPE, &req);
    assert_int_equal(req.common, FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME |
                                     FRD__ATTR_CMN_ERROR | FRD__ATTR_CMN_OBJTYPE);
    assert_int_equal(req.dir | req.file | req.vol | req.fork, 0);
    frd__attr_request_for(FRD_FIELD_BTIME | FRD_FIELD_RDEV, &req);
    assert_int_equal(req.common & ~(uint32_t)FRD__ATTR_BASE_COMMON, FRD__ATTR_CMN_CRTIME);
    assert_int_equal(req.dir, 0);
    assert_int_equal(req.file, FRD__ATTR_FILE_DEVTYPE);
    frd__attr_request_for(FRD_FIELD_NLINK, &req);
    assert_int_equal(req.dir, FRD__ATTR_DIR_LINKCOUNT);
    assert_int_equal(req.file, FRD__ATTR_FILE_LINKCOUNT);
    // Every single field asks for something beyond the base, and is accepted.
    for (unsigned f = FRD_FIELD_SIZE; f & FRD_FIELDS_ALL; f <<= 1) {
        frd__attr_request_for(f, &req);
        assert_true(frd__attr_request_ok(&req));
        assert_true((req.common & ~(uint32_t)FRD__ATTR_BASE_COMMON) != 0 || req.dir != 0 ||
                    req.file != 0);
    }
}

/** Encodes one entry for `req`, decodes it, converts it. */
static void round_trip(const struct frd__attr_set *req, struct attr_values *v, unsigned wanted,
                       struct frd_entry *e)
{
    uint8_t buf[512];
    memset(buf, 0, sizeof(buf));
    v->returned.common &= req->common;
    v->returned.dir &= req->dir;
    v->returned.file &= req->file;
    size_t len = attr_enc_entry(buf, 0, req, 0, v, 0, NULL);
    size_t pos = 0;
    struct frd__attr_entry rec;
    assert_int_equal(frd__decode_attr_entry(buf, len, &pos, req, 0, &rec), 1);
    memset(e, 0, sizeof(*e));
    frd__entry_from_attr(e, &rec, wanted, true);
}

static void test_attr_entry_fills_every_v1_field(void **state)
{
    (void)state;
    struct frd_entry e;
    struct attr_values f = file_values("file.txt");
    round_trip(&full_request, &f, FRD_FIELDS_ALL, &e);
    assert_int_equal(e.fields, FRD_FIELDS_ALL);
    assert_int_equal(e.type, FRD_TYPE_REG);
    assert_int_equal(e.mode, 0100644);
    assert_int_equal(e.uid, 501);
    assert_int_equal(e.gid, 20);
    assert_int_equal(e.btime_ns, INT64_C(1600000000000000007));
    assert_int_equal(e.atime_ns, INT64_C(1700000001999999999));
    assert_int_equal(e.mtime_ns, INT64_C(1700000000123456789));
    assert_int_equal(e.attributes, FRD_ATTR_NODUMP | FRD_ATTR_APPEND);
    assert_int_equal(e.attributes_known,
                     FRD_ATTR_IMMUTABLE | FRD_ATTR_APPEND | FRD_ATTR_COMPRESSED | FRD_ATTR_NODUMP);
    assert_int_equal(e.rdev, 0);
    assert_int_equal(e.size, 4096 + 17);
    assert_int_equal(e.nlink, 3);
    assert_int_equal(e.file_id, 0x123456789abcULL);

    // A character device: ATTR_FILE_DEVTYPE is its device number.
    struct attr_values c = file_values("tty");
    c.objtype = FRD__VCHR;
    c.accessmask = 0020620;
    c.file_devtype = 0x10000002;
    c.flags = FRD__UF_IMMUTABLE | FRD__UF_COMPRESSED;
    round_trip(&full_request, &c, FRD_FIELDS_ALL, &e);
    assert_int_equal(e.type, FRD_TYPE_CHR);
    assert_int_equal(e.mode, 0020620);
    assert_int_equal(e.rdev, 0x10000002);
    assert_int_equal(e.attributes, FRD_ATTR_IMMUTABLE | FRD_ATTR_COMPRESSED);

    // A directory that is a mount point.
    struct attr_values d = dir_values("mnt");
    d.flags = FRD__SF_IMMUTABLE;
    round_trip(&full_request, &d, FRD_FIELDS_ALL, &e);
    assert_int_equal(e.type, FRD_TYPE_DIR);
    assert_int_equal(e.attributes, FRD_ATTR_IMMUTABLE | FRD_ATTR_MOUNT_ROOT);
    assert_true(e.attributes_known & FRD_ATTR_MOUNT_ROOT);
    assert_false(e.fields & (FRD_FIELD_SIZE | FRD_FIELD_RDEV)); // no file attributes returned
}

static void test_attr_entry_with_one_field_wanted_fills_that_field(void **state)
{
    (void)state;
    for (unsigned f = FRD_FIELD_SIZE; f & FRD_FIELDS_ALL; f <<= 1) {
        struct frd__attr_set req;
        frd__attr_request_for(f, &req);
        struct attr_values v = file_values("one");
        struct frd_entry e;
        round_trip(&req, &v, f, &e);
        assert_int_equal(e.type, FRD_TYPE_REG);
        assert_int_equal(e.fields, FRD_FIELD_TYPE | f);
    }
    // Type alone: nothing else, even where the record had more.
    struct attr_values v = file_values("names");
    struct frd_entry e;
    round_trip(&full_request, &v, FRD_FIELD_TYPE, &e);
    assert_int_equal(e.fields, FRD_FIELD_TYPE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attrlist_file_dir_and_error_entries_decode),
        cmocka_unit_test(test_attr_request_for_asks_only_what_is_wanted),
        cmocka_unit_test(test_attr_entry_fills_every_v1_field),
        cmocka_unit_test(test_attr_entry_with_one_field_wanted_fills_that_field),
        cmocka_unit_test(
            test_attrlist_attributes_the_volume_lacks_are_absent_and_later_ones_move_up),
        cmocka_unit_test(test_attrlist_pack_inval_keeps_every_slot),
        cmocka_unit_test(test_attrlist_other_known_attributes_are_skipped_by_size),
        cmocka_unit_test(test_attrlist_request_rules),
        cmocka_unit_test(test_attrlist_every_malformation_is_malformed),
        cmocka_unit_test(test_attrlist_position_past_end_is_malformed),
        cmocka_unit_test(test_attrlist_times_beyond_int64_ns_saturate),
    };
    return cmocka_run_group_tests_name("attrlist", tests, NULL, NULL);
}
