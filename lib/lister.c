// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Listers and frd_read_dir(): the public front end over the platform backend. */
#include "internal.h"
#include "platform.h"

#include <string.h>

bool frd__test_batch_full;

#define FRD__LISTER_FLAGS_ALL (FRD_LIST_NAMES_ONLY | FRD_LIST_REWIND)

int frd_lister_new(struct frd_lister **out, unsigned flags)
{
    if (out == NULL || (flags & ~(unsigned)FRD__LISTER_FLAGS_ALL) != 0) {
        return FRD_EINVAL;
    }
    struct frd_lister *lister = frd__calloc(1, sizeof(*lister));
    if (lister == NULL) {
        return FRD_ENOMEM;
    }
    lister->buffer = frd__malloc(FRD__LISTER_BUFFER_SIZE);
    if (lister->buffer == NULL) {
        frd__free(lister);
        return FRD_ENOMEM;
    }
    lister->flags = flags;
    lister->wanted = FRD_FIELDS_ALL;
    lister->error_op = "";
    lister->batch_fd = FRD_INVALID_FD;
    *out = lister;
    return 0;
}

void frd_lister_free(struct frd_lister *lister)
{
    if (lister == NULL) {
        return;
    }
    frd_lister_batch_end(lister);
    frd__plat_lister_release(lister);
    frd__free(lister->batch_name);
    frd__free(lister->error_name);
    frd__free(lister->buffer);
    frd__free(lister);
}

int frd_lister_set_flags(struct frd_lister *lister, unsigned flags)
{
    if (lister == NULL || (flags & ~(unsigned)FRD__LISTER_FLAGS_ALL) != 0) {
        return FRD_EINVAL;
    }
    lister->flags = flags;
    return 0;
}

unsigned frd_lister_flags(const struct frd_lister *lister)
{
    return lister->flags;
}

int frd_lister_set_fields(struct frd_lister *lister, unsigned wanted)
{
    if (lister == NULL || (wanted & ~(unsigned)FRD_FIELDS_ALL) != 0) {
        return FRD_EINVAL;
    }
    lister->wanted = wanted;
    return 0;
}

unsigned frd_lister_fields(const struct frd_lister *lister)
{
    if (lister->flags & FRD_LIST_NAMES_ONLY) {
        return FRD_FIELD_TYPE;
    }
    return lister->wanted;
}

struct frd_list_error frd_lister_error(const struct frd_lister *lister)
{
    struct frd_list_error err = {lister->error_code, lister->error_op, "",
                                 lister->error_code != 0 ? lister->error_call : FRD_OP_OTHER};
    if (lister->error_code != 0 && lister->error_name != NULL) {
        err.name = lister->error_name;
    }
    return err;
}

/** Records a failure; on a failure to copy the name, the name reads as "". */
static int lister_fail(struct frd_lister *lister, int code, struct frd__failure op,
                       const char *name)
{
    lister->error_code = code;
    lister->error_op = op.op;
    lister->error_call = op.call;
    if (name == NULL) {
        name = "";
    }
    size_t need = strlen(name) + 1;
    if (FRD__RESERVE(lister->error_name, lister->error_name_capacity, need, 64) < 0) {
        if (lister->error_name != NULL) {
            lister->error_name[0] = '\0';
        }
        return code;
    }
    memcpy(lister->error_name, name, need);
    return code;
}

static bool lister_ready(const struct frd_lister *lister, const struct frd_list *list)
{
    return lister != NULL && list != NULL;
}

int frd_lister_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                       const char *name)
{
    if (!lister_ready(lister, list)) {
        return FRD_EINVAL;
    }
    lister->error_code = 0;
    struct frd__failure op = {"", FRD_OP_OTHER};
    int rc = frd__plat_list_fd(lister, list, fd, &op);
    if (rc < 0) {
        return lister_fail(lister, rc, op, name);
    }
    return rc;
}

int frd_lister_batch_begin(struct frd_lister *lister, frd_os_fd fd, const char *name)
{
    if (lister == NULL || fd == FRD_INVALID_FD) {
        return FRD_EINVAL;
    }
    frd_lister_batch_end(lister);
    lister->error_code = 0;
    if (name == NULL) {
        name = "";
    }
    size_t need = strlen(name) + 1;
    if (FRD__RESERVE(lister->batch_name, lister->batch_name_capacity, need, 64) < 0) {
        return lister_fail(lister, FRD_ENOMEM, (struct frd__failure){"append", FRD_OP_ALLOC}, name);
    }
    memcpy(lister->batch_name, name, need);
    lister->batch_fd = fd;
    lister->batch_open = true;
    lister->batch_started = false;
    lister->batch_done = false;
    lister->batch_full = false;
    return 0;
}

int frd_lister_batch_read(struct frd_lister *lister, struct frd_list *list)
{
    if (!lister_ready(lister, list) || !lister->batch_open) {
        return FRD_EINVAL;
    }
    if (lister->batch_done) {
        return 0;
    }
    lister->error_code = 0;
    struct frd__failure op = {"", FRD_OP_OTHER};
    int rc = frd__plat_list_batch(lister, list, &op);
    lister->batch_full = lister->batch_full || frd__test_batch_full;
    if (rc <= 0) {
        lister->batch_done = true;
    }
    if (rc < 0) {
        return lister_fail(lister, rc, op, lister->batch_name);
    }
    return rc;
}

int frd_lister_batch_open(struct frd_lister *lister, frd_os_fd parent, const char *name,
                          unsigned open_flags)
{
    if (lister == NULL || name == NULL || (open_flags & ~(unsigned)FRD_OPEN_NOFOLLOW)) {
        return FRD_EINVAL;
    }
    frd_lister_batch_end(lister);
    lister->error_code = 0;
    frd_os_fd fd;
    int rc = frd__plat_open_dir(parent, name, open_flags, &fd);
    if (rc < 0) {
        return lister_fail(lister, rc, (struct frd__failure){"open", FRD_OP_OPEN}, name);
    }
    rc = frd_lister_batch_begin(lister, fd, name);
    if (rc < 0) {
        frd__plat_close_dir(fd);
        return rc;
    }
    lister->batch_owns_fd = true;
    return 0;
}

void frd_lister_batch_end(struct frd_lister *lister)
{
    if (lister == NULL || !lister->batch_open) {
        return;
    }
    frd__plat_batch_end(lister);
    if (lister->batch_owns_fd) {
        frd__plat_close_dir(lister->batch_fd);
        lister->batch_owns_fd = false;
    }
    lister->batch_open = false;
    lister->batch_fd = FRD_INVALID_FD;
}

int frd_lister_list_at(struct frd_lister *lister, struct frd_list *list, frd_os_fd parent,
                       const char *name, unsigned open_flags)
{
    if (!lister_ready(lister, list) || name == NULL ||
        (open_flags & ~(unsigned)FRD_OPEN_NOFOLLOW)) {
        return FRD_EINVAL;
    }
    lister->error_code = 0;
    frd_os_fd fd;
    int rc = frd__plat_open_dir(parent, name, open_flags, &fd);
    if (rc < 0) {
        return lister_fail(lister, rc, (struct frd__failure){"open", FRD_OP_OPEN}, name);
    }
    rc = frd_lister_list_fd(lister, list, fd, name);
    frd__plat_close_dir(fd);
    return rc;
}

int frd_lister_list_path(struct frd_lister *lister, struct frd_list *list, const char *path)
{
    return frd_lister_list_at(lister, list, FRD_INVALID_FD, path, 0);
}

int frd_read_dir(const char *path, unsigned flags, struct frd_list *list)
{
    if (path == NULL || list == NULL || (flags & ~(unsigned)FRD_LIST_NAMES_ONLY)) {
        return FRD_EINVAL;
    }
    struct frd_lister *lister;
    int rc = frd_lister_new(&lister, flags);
    if (rc < 0) {
        return rc;
    }
    frd_list_clear(list);
    rc = frd_lister_list_path(lister, list, path);
    frd_lister_free(lister);
    if (rc >= 0) {
        frd_list_sort(list);
    }
    return rc;
}
