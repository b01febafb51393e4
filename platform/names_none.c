// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Names-only listing in place (frd__plat_names_read(), platform.h) for the backends that
 * have no such path (posix, darwin, win): they say FRD_ENOTSUP, and the walker lists through
 * frd__plat_list_batch() as for any other walk.
 */
#include "internal.h"
#include "platform.h"

int frd__plat_names_read(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd__failure *op)
{
    (void)lister;
    (void)cur;
    (void)op;
    return FRD_ENOTSUP; // lists through frd__plat_list_batch() only
}

int frd__plat_names_next(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd_entry *e, struct frd__failure *op)
{
    (void)lister;
    (void)cur;
    (void)e;
    (void)op;
    return 0; // never reached: frd__plat_names_read() said FRD_ENOTSUP
}
