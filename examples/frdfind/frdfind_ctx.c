// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's run context (struct ff_ctx): set up with the defaults of an empty command line,
 * the states every run has made, and everything freed at the end, module by module.
 */

#include "frdfind_ctx.h"

#include "frdfind_color.h"
#include "frdfind_exec.h"
#include "frdfind_file.h"
#include "frdfind_ls.h"
#include "frdfind_match.h"
#include "frdfind_mounts.h"
#include "frdfind_options.h"
#include "frdfind_out.h"
#include "frdfind_owner.h"

#include <string.h>

int ff_ctx_init(struct ff_ctx *ctx)
{
    memset(ctx, 0, sizeof(*ctx));
    atomic_init(&ctx->msgs.failed, false);
    atomic_init(&ctx->msgs.stderr_failed, false);
    atomic_init(&ctx->msgs.stdout_unflushed, false);
    atomic_init(&ctx->owners, NULL); // (made on first use)
    if (ff_mounts_new(ctx) != 0) {
        return -1;
    }
    return 0;
}

void ff_ctx_free(struct ff_ctx *ctx)
{
    ff_exec_free(ctx);
    ff_file_free(ctx);
    ff_ls_free(ctx);
    ff_out_free_all(ctx);
    ff_color_free(ctx);
    ff_matcher_free(ctx);
    ff_mounts_free(ctx);
    ff_owners_free(ctx);
    ff_options_free(&ctx->opts);
}
