// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * Messages between ranks, Safra's termination token and the final drain.
 *
 * Termination (Dijkstra-Safra): every rank counts MP_WORK messages sent minus received
 * (work_balance) and turns black when it receives work. Rank 0, once passive, sends a white
 * token with count 0 around the ring 0 -> 1 -> ... -> n-1 -> 0; each rank passes it on only
 * while passive, adding its balance and blackening it if the rank is black, then turns
 * white. Back at rank 0 (passive): a white token, a white rank 0 and a total count of 0
 * mean every rank is passive and no work is in flight, so the walk has ended (rank 0 sends
 * MP_DONE); otherwise rank 0 starts another round. Requests and replies without work do not
 * count: they never make a passive rank active.
 *
 * Drain: the other messages (late requests, a token, progress, an abort) may still be in
 * flight at the end. Every rank counts what it sent to and received from each rank; at the
 * end an MPI_Alltoall tells each rank how many to expect from each, it receives the missing
 * ones and drops them, and waits for its own Isends, so MPI_Finalize finds nothing pending.
 *
 * Nothing received is trusted (a rank of another build, a corrupted transport): mp_check()
 * holds every message to what its tag fixes, and a message that breaks it stops the walk
 * with FRD_EMALFORMED on every rank instead of being read past its end or left to hang the
 * termination (a lost token would). Memory comes from libfrd's allocator (lib/internal.h).
 */
#include "proto.h"

#include "internal.h"

#include <string.h>

struct mp_send {
    MPI_Request req;
    char *buf;
};

int mp_init(struct mp *m, MPI_Comm comm)
{
    *m = (struct mp){.comm = comm};
    MPI_Comm_rank(comm, &m->rank);
    MPI_Comm_size(comm, &m->size);
    // Also the counts mp_finish() receives: it must not fail to take part in its Alltoall.
    m->sent_to = frd__calloc((size_t)m->size, sizeof(uint64_t));
    m->recv_from = frd__calloc((size_t)m->size, sizeof(uint64_t));
    m->expect = frd__calloc((size_t)m->size, sizeof(uint64_t));
    if (m->sent_to == NULL || m->recv_from == NULL || m->expect == NULL) {
        frd__free(m->sent_to);
        frd__free(m->recv_from);
        frd__free(m->expect);
        return FRD_ENOMEM;
    }
    m->have_token = m->rank == 0;
    m->token_fresh = m->rank == 0;
    return 0;
}

/** Forgets the sends that completed. */
static int mp_reap(struct mp *m)
{
    size_t kept = 0;
    for (size_t i = 0; i < m->nsends; i++) {
        int done = 0;
        if (MPI_Test(&m->sends[i].req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            return FRD_EIO;
        }
        if (done) {
            frd__free(m->sends[i].buf);
        } else {
            m->sends[kept++] = m->sends[i];
        }
    }
    m->nsends = kept;
    return 0;
}

int mp_send(struct mp *m, int dst, int tag, const void *buf, size_t len)
{
    if (len > (size_t)INT32_MAX) {
        return FRD_ENOMEM; // more than an MPI count (an int) says
    }
    int rc = mp_reap(m);
    if (rc != 0) {
        return rc;
    }
    if (FRD__RESERVE(m->sends, m->cap, m->nsends + 1, 16) < 0) {
        return FRD_ENOMEM;
    }
    char *copy = frd__malloc(len);
    if (copy == NULL) {
        return FRD_ENOMEM;
    }
    if (len > 0) {
        memcpy(copy, buf, len);
    }
    struct mp_send *s = &m->sends[m->nsends];
    if (MPI_Isend(copy, (int)len, MPI_BYTE, dst, tag, m->comm, &s->req) != MPI_SUCCESS) {
        frd__free(copy);
        return FRD_EIO;
    }
    s->buf = copy;
    m->nsends++;
    m->sent_to[dst]++;
    if (tag == MP_WORK) {
        m->work_balance++;
    }
    return 0;
}

int mp_send_all(struct mp *m, int tag, const void *buf, size_t len)
{
    for (int r = 0; r < m->size; r++) {
        int rc = r != m->rank ? mp_send(m, r, tag, buf, len) : 0;
        if (rc != 0) {
            return rc;
        }
    }
    return 0;
}

/** Receives the message `st` announced. @return 0, FRD_ENOMEM or FRD_EIO. */
static int mp_recv(struct mp *m, const MPI_Status *st, struct mp_msg *out)
{
    int count = 0;
    if (MPI_Get_count(st, MPI_BYTE, &count) != MPI_SUCCESS || count < 0) {
        return FRD_EIO; // (MPI_UNDEFINED is negative)
    }
    char *buf = count > 0 ? frd__malloc((size_t)count) : NULL;
    if (count > 0 && buf == NULL) {
        return FRD_ENOMEM; // left in MPI's queue: mp_finish() drains it
    }
    if (MPI_Recv(buf, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, m->comm, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
        frd__free(buf);
        return FRD_EIO;
    }
    m->recv_from[st->MPI_SOURCE]++;
    *out = (struct mp_msg){st->MPI_TAG, st->MPI_SOURCE, buf, (size_t)count};
    return 0;
}

int mp_check(const struct mp *m, const struct mp_msg *msg)
{
    if (msg->src < 0 || msg->src >= m->size || msg->src == m->rank) {
        return FRD_EMALFORMED;
    }
    switch (msg->tag) {
    case MP_REQ:
    case MP_NOWORK:
        return msg->len == 0 ? 0 : FRD_EMALFORMED;
    case MP_DONE:
        return msg->len == 0 && msg->src == 0 ? 0 : FRD_EMALFORMED;
    case MP_WORK:
        return msg->len > 0 ? 0 : FRD_EMALFORMED; // its items: mq_unpack()
    case MP_TOKEN: {
        // One token goes round the ring, from each rank to the next.
        if (msg->len != MP_TOKEN_LEN || m->have_token ||
            msg->src != (m->rank + m->size - 1) % m->size) {
            return FRD_EMALFORMED;
        }
        int32_t black;
        memcpy(&black, msg->buf + 8, 4);
        return black == 0 || black == 1 ? 0 : FRD_EMALFORMED;
    }
    case MP_ABORT: {
        if (msg->len != MP_ABORT_LEN) {
            return FRD_EMALFORMED;
        }
        int32_t code;
        memcpy(&code, msg->buf, 4);
        return code < 0 ? 0 : FRD_EMALFORMED;
    }
    case MP_PROGRESS: {
        if (msg->len != MP_PROGRESS_LEN || m->rank != 0) {
            return FRD_EMALFORMED;
        }
        uint64_t idle;
        memcpy(&idle, msg->buf + 32, 8);
        return idle <= 1 ? 0 : FRD_EMALFORMED;
    }
    default:
        return FRD_EMALFORMED;
    }
}

int mp_poll(struct mp *m, struct mp_msg *out)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m->comm, &flag, &st) != MPI_SUCCESS) {
            return FRD_EIO;
        }
        if (!flag) {
            return 0;
        }
        struct mp_msg msg;
        int rc = mp_recv(m, &st, &msg);
        if (rc == 0) {
            rc = mp_check(m, &msg);
        }
        if (rc != 0) {
            if (rc == FRD_EMALFORMED) {
                frd__free(msg.buf);
            }
            return rc;
        }
        if (msg.tag == MP_WORK) {
            m->work_balance--;
            m->black = true;
        }
        if (msg.tag != MP_TOKEN) {
            *out = msg;
            return 1;
        }
        int32_t black;
        memcpy(&m->token_count, msg.buf, 8);
        memcpy(&black, msg.buf + 8, 4);
        m->token_black = black != 0;
        m->have_token = true;
        frd__free(msg.buf);
    }
}

/** Sends the token to the next rank. @return 0 or mp_send()'s code. */
static int mp_pass_token(struct mp *m, int64_t count, bool black)
{
    char buf[12];
    int32_t b = black ? 1 : 0;
    memcpy(buf, &count, 8);
    memcpy(buf + 8, &b, 4);
    m->have_token = false;
    m->black = false;
    return mp_send(m, (m->rank + 1) % m->size, MP_TOKEN, buf, sizeof buf);
}

int mp_idle_token(struct mp *m)
{
    if (!m->have_token) {
        return 0;
    }
    if (m->rank != 0) {
        return mp_pass_token(m, m->token_count + m->work_balance, m->token_black || m->black);
    }
    if (m->size == 1) {
        return 1; // passive, alone, no work can be in flight
    }
    if (!m->token_fresh && !m->token_black && !m->black && m->token_count + m->work_balance == 0) {
        return 1;
    }
    m->token_fresh = false;
    return mp_pass_token(m, 0, false);
}

int mp_finish(struct mp *m)
{
    int rc = 0;
    if (MPI_Alltoall(m->sent_to, 1, MPI_UINT64_T, m->expect, 1, MPI_UINT64_T, m->comm) !=
        MPI_SUCCESS) {
        rc = FRD_EIO;
    }
    bool stuck = rc != 0; // nothing more can be drained
    for (int src = 0; !stuck && src < m->size; src++) {
        if (m->expect[src] < m->recv_from[src]) {
            rc = FRD_EMALFORMED; // fewer sent than received here: a count that lies
            continue;
        }
        while (m->recv_from[src] < m->expect[src]) {
            MPI_Status st;
            struct mp_msg msg;
            int got = MPI_Probe(src, MPI_ANY_TAG, m->comm, &st) == MPI_SUCCESS
                          ? mp_recv(m, &st, &msg)
                          : FRD_EIO;
            if (got != 0) {
                rc = got;
                stuck = true;
                break;
            }
            frd__free(msg.buf);
        }
    }
    for (size_t i = 0; i < m->nsends; i++) {
        if (rc != FRD_EIO) {
            MPI_Wait(&m->sends[i].req, MPI_STATUS_IGNORE);
        }
        frd__free(m->sends[i].buf);
    }
    frd__free(m->sends);
    frd__free(m->sent_to);
    frd__free(m->recv_from);
    frd__free(m->expect);
    *m = (struct mp){0};
    return rc;
}
