// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -type and -xtype (frdfind_types.c). */
#ifndef FRD_EXAMPLES_FRDFIND_TYPES_H
#define FRD_EXAMPLES_FRDFIND_TYPES_H

#include "frdfind_table.h"

/** -type, -xtype: the set of type letters (find's messages); -xtype also keeps -H/-L. */
ff_parse_fn ff_parse_type;
/** -type: the type the listing gave is in the set. */
ff_eval_fn ff_eval_type;
/** -xtype: the type of a link's target (or of the link, when links are followed). */
ff_eval_fn ff_eval_xtype;

#endif // FRD_EXAMPLES_FRDFIND_TYPES_H
