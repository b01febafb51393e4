// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Ordered mode (stub while the concurrent mode is brought up). */
#include "walker.h"

int frd__ordered_init(struct frd_walk *walk)
{
    (void)walk;
    return FRD_ENOSYS;
}

void frd__ordered_free(struct frd_walk *walk)
{
    (void)walk;
}

void frd__ordered_consume(struct frd__worker *consumer)
{
    (void)consumer;
}

void frd__ordered_worker_run(struct frd__worker *w)
{
    (void)w;
}

void frd__ordered_wake(struct frd_walk *walk)
{
    (void)walk;
}
