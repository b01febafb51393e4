// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** Messages between ranks, Safra's termination token and the final drain (see proto.c). */
#ifndef FRD_MPI_PROTO_H
#define FRD_MPI_PROTO_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Message tags. Only MP_WORK carries work (and counts for termination). */
enum mp_tag {
    MP_REQ = 1,      /**< "give me work"; empty */
    MP_WORK = 2,     /**< the reply with directories (queue.h's wire form) */
    MP_NOWORK = 3,   /**< the reply without; empty */
    MP_TOKEN = 4,    /**< Safra's token: int64 count, int32 black */
    MP_DONE = 5,     /**< rank 0 to all: the walk has ended; empty */
    MP_ABORT = 6,    /**< to all: stop; int32 code */
    MP_PROGRESS = 7, /**< to rank 0: five uint64 (entries, dirs, bytes, errors, idle) */
};

/** A received message; buf is malloc'd (NULL when empty), the caller frees it. */
struct mp_msg {
    int tag;
    int src;
    char *buf;
    size_t len;
};

struct mp_send;

/** One rank's end of the protocol. Used by the thread that called MPI only. */
struct mp {
    MPI_Comm comm;
    int rank;
    int size;
    struct mp_send *sends; /**< Isends not known to be complete */
    size_t nsends;
    size_t cap;
    uint64_t *sent_to;    /**< messages sent to each rank (all tags), for the drain */
    uint64_t *recv_from;  /**< messages received from each rank */
    int64_t work_balance; /**< MP_WORK sent minus received (Safra's counter) */
    bool black;           /**< received work since it last passed the token */
    bool have_token;
    bool token_black;
    bool token_fresh; /**< rank 0: no round started yet */
    int64_t token_count;
};

/** @return 0, or -1 when out of memory. */
int mp_init(struct mp *m, MPI_Comm comm);

/** Sends a copy of buf (len bytes) to dst without blocking. @return 0, -1 on failure. */
int mp_send(struct mp *m, int dst, int tag, const void *buf, size_t len);

/** Sends to every other rank. @return 0, -1 on failure. */
int mp_send_all(struct mp *m, int tag, const void *buf, size_t len);

/**
 * Receives one message if one is waiting. MP_TOKEN is kept inside (have_token), never
 * returned. @return 1 with *out filled, 0 if none, -1 on failure.
 */
int mp_poll(struct mp *m, struct mp_msg *out);

/**
 * Call while this rank is passive (walking nothing, holding nothing): passes the token on
 * if this rank holds it. @return 1 on rank 0 when termination is detected, 0 otherwise,
 * -1 on failure.
 */
int mp_idle_token(struct mp *m);

/**
 * Ends the protocol collectively: every rank learns how many messages were sent to it,
 * receives (and drops) those still in flight, and waits for its own sends. Frees m.
 * @return 0, or -1 when an MPI call failed.
 */
int mp_finish(struct mp *m);

#endif // FRD_MPI_PROTO_H
