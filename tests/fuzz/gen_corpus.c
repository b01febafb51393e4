// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Writes the seed corpora of the macOS, Windows and UTF-16 fuzz targets with the tests'
 * encoders: gen_corpus DIR writes DIR/<decoder>/<seed>. Run it again after changing an
 * encoder or a target's input format, and commit tests/corpus/.
 */
#include "attrlist_encoder.h"
#include "decode.h"
#include "direntry_encoder.h"
#include "nt_dirinfo_encoder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *out_dir;

static void seed(const char *decoder, const char *name, const uint8_t *head, size_t head_len,
                 const uint8_t *body, size_t body_len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s/%s", out_dir, decoder, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(head, 1, head_len, f) != head_len ||
        fwrite(body, 1, body_len, f) != body_len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void attrlist_seeds(void)
{
    // What platform/darwin.c asks for in a full listing (frd__attr_request_for()).
    struct frd__attr_set req = {
        FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_ERROR |
            FRD__ATTR_CMN_DEVID | FRD__ATTR_CMN_OBJTYPE | FRD__ATTR_CMN_CRTIME |
            FRD__ATTR_CMN_MODTIME | FRD__ATTR_CMN_CHGTIME | FRD__ATTR_CMN_ACCTIME |
            FRD__ATTR_CMN_OWNERID | FRD__ATTR_CMN_GRPID | FRD__ATTR_CMN_ACCESSMASK |
            FRD__ATTR_CMN_FLAGS | FRD__ATTR_CMN_FILEID,
        0, FRD__ATTR_DIR_LINKCOUNT | FRD__ATTR_DIR_MOUNTSTATUS,
        FRD__ATTR_FILE_LINKCOUNT | FRD__ATTR_FILE_DEVTYPE | FRD__ATTR_FILE_DATALENGTH |
            FRD__ATTR_FILE_DATAALLOCSIZE,
        0};
    for (int pack = 0; pack < 2; pack++) {
        uint8_t head[13];
        memcpy(head, &req.common, 4);
        memcpy(head + 4, &req.dir, 4);
        memcpy(head + 8, &req.file, 4);
        head[12] = (uint8_t)pack;
        struct attr_values v;
        memset(&v, 0, sizeof(v));
        v.returned = req;
        v.returned.dir = 0;
        v.name = "file.txt";
        v.objtype = FRD__VREG;
        v.mtime_sec = 1700000000;
        v.crtime_sec = 1600000000;
        v.atime_sec = 1700000001;
        v.uid = 501;
        v.gid = 20;
        v.flags = 0x2; // UF_IMMUTABLE
        v.fileid = 42;
        v.file_datalength = 99;
        uint8_t buf[1024];
        size_t len = attr_enc_entry(buf, 0, &req, pack, &v, 0, NULL);
        v.returned = req;
        v.returned.file = 0;
        v.name = "dir";
        v.objtype = FRD__VDIR;
        len = attr_enc_entry(buf, len, &req, pack, &v, 0, NULL);
        memset(&v.returned, 0, sizeof(v.returned));
        v.returned.common = FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_ERROR;
        v.error = 13;
        v.name = "denied";
        len = attr_enc_entry(buf, len, &req, pack, &v, 1, NULL);
        seed("attrlist", pack ? "good_pack_inval" : "good_three_entries", head, 13, buf, len);
    }
    uint32_t minimal[3] = {
        FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_OBJTYPE, 0, 0};
    struct frd__attr_set small = {minimal[0], 0, 0, 0, 0};
    uint8_t head[13] = {0};
    memcpy(head, minimal, 12);
    struct attr_values v;
    memset(&v, 0, sizeof(v));
    v.returned = small;
    v.name = "names-only";
    v.objtype = FRD__VLNK;
    uint8_t buf[256];
    size_t len = attr_enc_entry(buf, 0, &small, 0, &v, 1, NULL);
    seed("attrlist", "good_names_only_request", head, 13, buf, len);
    seed("attrlist", "empty", head, 13, buf, 0);
}

static void direntry_seeds(void)
{
    static uint8_t buf[2048];
    memset(buf, 0, sizeof(buf));
    size_t len = direntry_put(buf, 0, 2, FRD__DT_DIR, ".");
    len = direntry_put(buf, len, 1, FRD__DT_DIR, "..");
    len = direntry_put(buf, len, 10, FRD__DT_REG, "file");
    len = direntry_put(buf, len, 11, FRD__DT_LNK, "a link with spaces");
    len = direntry_put(buf, len, 12, FRD__DT_UNKNOWN, "unknown\xc3\xa9");
    uint32_t eof = FRD__GETDIRENTRIES64_EOF;
    memcpy(buf + sizeof(buf) - 4, &eof, 4);
    uint8_t head[2] = {(uint8_t)(len & 0xFF), (uint8_t)(len >> 8)};
    seed("direntry", "good_eof_2k", head, 2, buf, sizeof(buf));
    seed("direntry", "good_small_buffer", head, 2, buf, len);
    uint8_t zero[2] = {0, 0};
    seed("direntry", "empty_not_eof", zero, 2, buf, 1024);
}

static void nt_seeds(void)
{
    static const char *names[] = {".", "..", "file.txt", "dir", "link"};
    for (int cls = 0; cls < 3; cls++) {
        struct nt_values v[6];
        memset(v, 0, sizeof(v));
        for (int i = 0; i < 5; i++) {
            v[i].name = names[i];
            v[i].mtime = INT64_C(132539328001234567);
            v[i].size = i * 100;
            v[i].attributes = i == 2 ? 0x20 : FRD__FILE_ATTRIBUTE_DIRECTORY;
            v[i].id[0] = (uint8_t)(i + 1);
        }
        v[4].attributes |= FRD__FILE_ATTRIBUTE_REPARSE_POINT;
        v[4].reparse_tag = FRD__IO_REPARSE_TAG_MOUNT_POINT;
        static const uint16_t odd[] = {'n', 0xD83D, 0xDE00, 0xE9, 0xD800, 'z'};
        v[5].name16 = odd;
        v[5].name16_len = 6;
        uint8_t buf[2048];
        memset(buf, 0, sizeof(buf));
        size_t len = nt_put_all(buf, (enum frd__nt_class)cls, v, 6);
        uint8_t head[1] = {(uint8_t)cls};
        static const char *seed_names[] = {"good_full", "good_id_both", "good_id_extd"};
        seed("nt_dirinfo", seed_names[cls], head, 1, buf, len + 64);
    }
}

static void utf16_seeds(void)
{
    static const uint16_t ascii[] = {'D', 'o', 'c', 'u', 'm', 'e', 'n', 't', 's', ' ', 'a',
                                     'n', 'd', ' ', 'S', 'e', 't', 't', 'i', 'n', 'g', 's'};
    static const uint16_t cyr[] = {0x0414, 0x043E, 0x043A, 0x0443, 0x043C, 0x0435, 0x043D,
                                   0x0442, 0x044B, 0x0414, 0x043E, 0x043A, 0x0443, 0x043C,
                                   0x0435, 0x043D, 0x0442, '.',    't',    'x',    't'};
    static const uint16_t mixed[] = {0x65E5, 0x672C, 0xD83D, 0xDE00, 0xD800, 'a',   0xDC00,
                                     0xDBFF, 0xDFFF, 0x7F,   0x80,   0x7FF,  0x800, 0xFFFF};
    uint8_t buf[128];
    const struct {
        const char *name;
        const uint16_t *u;
        size_t n;
    } seeds[] = {{"ascii", ascii, sizeof(ascii) / 2},
                 {"cyrillic", cyr, sizeof(cyr) / 2},
                 {"mixed_surrogates", mixed, sizeof(mixed) / 2}};
    for (size_t s = 0; s < 3; s++) {
        for (size_t i = 0; i < seeds[s].n; i++) {
            buf[2 * i] = (uint8_t)(seeds[s].u[i] & 0xFF);
            buf[2 * i + 1] = (uint8_t)(seeds[s].u[i] >> 8);
        }
        seed("utf16", seeds[s].name, buf, 0, buf, 2 * seeds[s].n);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_corpus DIR (writes DIR/<decoder>/<seed>)\n");
        return 2;
    }
    out_dir = argv[1];
    attrlist_seeds();
    direntry_seeds();
    nt_seeds();
    utf16_seeds();
    return 0;
}
