// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's owner tests (frdfind_ids.c): -user -group -uid -gid -nouser -nogroup. */
#ifndef FRD_EXAMPLES_FRDFIND_IDS_H
#define FRD_EXAMPLES_FRDFIND_IDS_H

#include "frdfind_table.h"

/** -user, -group (the row's param true): a name, or a number when nothing has that name. */
ff_parse_fn ff_parse_owner;
/** -user, -uid: the entry's user id compared (expr->cmp, expr->num). */
ff_eval_fn ff_eval_uid;
/** -group, -gid: the entry's group id compared. */
ff_eval_fn ff_eval_gid;
/** -nouser: no name for the entry's user id. */
ff_eval_fn ff_eval_nouser;
/** -nogroup: no name for the entry's group id. */
ff_eval_fn ff_eval_nogroup;

#endif // FRD_EXAMPLES_FRDFIND_IDS_H
