// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** Messages between ranks, Safra's termination token and the final drain (see proto.c). */
#ifndef FRD_MPI_PROTO_H
#define FRD_MPI_PROTO_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Message tags. Only MP_WORK carries work (and counts for termination). Each message's
 * length is fixed by its tag, but MP_WORK's (mp_check() and mq_unpack() check them).
 */
enum mp_tag {
    MP_REQ = 1,      /**< "give me work"; empty */
    MP_WORK = 2,     /**< the reply with directories (queue.h's wire form) */
    MP_NOWORK = 3,   /**< the reply without; empty */
    MP_TOKEN = 4,    /**< Safra's token: int64 count, int32 black (0 or 1) */
    MP_DONE = 5,     /**< rank 0 to all: the walk has ended; empty */
    MP_ABORT = 6,    /**< to all: stop; int32 code (negative) */
    MP_PROGRESS = 7, /**< to rank 0: five uint64 (entries, dirs, bytes, errors, idle 0/1) */
};

/** Bytes of the fixed-size bodies. */
#define MP_TOKEN_LEN    12
#define MP_ABORT_LEN    4
#define MP_PROGRESS_LEN 40

/** A received message; buf is frd__malloc'd (NULL when empty), the caller frees it
 *  (frd__free). */
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
    uint64_t *expect;     /**< mp_finish(): messages each rank sent to this one */
    int64_t work_balance; /**< MP_WORK sent minus received (Safra's counter) */
    bool black;           /**< received work since it last passed the token */
    bool have_token;
    bool token_black;
    bool token_fresh; /**< rank 0: no round started yet */
    int64_t token_count;
};

/** @return 0, or FRD_ENOMEM. */
int mp_init(struct mp *m, MPI_Comm comm);

/** Sends a copy of buf (len bytes) to dst without blocking. @return 0, FRD_ENOMEM, or
 *  FRD_EIO when MPI failed. */
int mp_send(struct mp *m, int dst, int tag, const void *buf, size_t len);

/** Sends to every other rank. @return 0, FRD_ENOMEM or FRD_EIO. */
int mp_send_all(struct mp *m, int tag, const void *buf, size_t len);

/**
 * Checks what the protocol fixes about a message `m` received (no MPI call; the walk's own
 * checks of MP_WORK's items and of requests are mq_unpack()'s and walk.c's): a known tag;
 * the length of its tag (MP_WORK: not empty); an MP_TOKEN from the rank before this one in
 * the ring, while this rank holds none, its black flag 0 or 1; MP_DONE from rank 0 only; an
 * MP_ABORT code below 0; MP_PROGRESS to rank 0 only, its idle figure 0 or 1; no message
 * from this rank itself. @return 0, or FRD_EMALFORMED.
 */
int mp_check(const struct mp *m, const struct mp_msg *msg);

/**
 * Receives one message if one is waiting and checks it (mp_check()). MP_TOKEN is kept
 * inside (have_token), never returned. @return 1 with *out filled, 0 if none;
 * FRD_EMALFORMED when the message broke the protocol (it is dropped: the caller should
 * stop the walk on every rank); FRD_ENOMEM; FRD_EIO when MPI failed.
 */
int mp_poll(struct mp *m, struct mp_msg *out);

/**
 * Call while this rank is passive (walking nothing, holding nothing): passes the token on
 * if this rank holds it. @return 1 on rank 0 when termination is detected, 0 otherwise,
 * or mp_send()'s code.
 */
int mp_idle_token(struct mp *m);

/**
 * Ends the protocol collectively: every rank learns how many messages were sent to it,
 * receives (and drops) those still in flight, and waits for its own sends. Frees m.
 * @return 0; FRD_EMALFORMED when a rank claims to have sent fewer messages than this rank
 * received from it (the drain then receives nothing more); FRD_ENOMEM; FRD_EIO when an
 * MPI call failed.
 */
int mp_finish(struct mp *m);

#endif // FRD_MPI_PROTO_H
