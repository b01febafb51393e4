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
 */
#include "proto.h"

#include <stdlib.h>
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
    m->sent_to = calloc((size_t)m->size, sizeof(uint64_t));
    m->recv_from = calloc((size_t)m->size, sizeof(uint64_t));
    if (m->sent_to == NULL || m->recv_from == NULL) {
        free(m->sent_to);
        free(m->recv_from);
        return -1;
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
            return -1;
        }
        if (done) {
            free(m->sends[i].buf);
        } else {
            m->sends[kept++] = m->sends[i];
        }
    }
    m->nsends = kept;
    return 0;
}

int mp_send(struct mp *m, int dst, int tag, const void *buf, size_t len)
{
    if (len > (size_t)INT32_MAX || mp_reap(m) != 0) {
        return -1;
    }
    if (m->nsends == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        struct mp_send *s = realloc(m->sends, cap * sizeof(*s));
        if (s == NULL) {
            return -1;
        }
        m->sends = s;
        m->cap = cap;
    }
    char *copy = malloc(len ? len : 1);
    if (copy == NULL) {
        return -1;
    }
    if (len > 0) {
        memcpy(copy, buf, len);
    }
    struct mp_send *s = &m->sends[m->nsends];
    if (MPI_Isend(copy, (int)len, MPI_BYTE, dst, tag, m->comm, &s->req) != MPI_SUCCESS) {
        free(copy);
        return -1;
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
        if (r != m->rank && mp_send(m, r, tag, buf, len) != 0) {
            return -1;
        }
    }
    return 0;
}

/** Receives the message `st` announced. @return 0 or -1. */
static int mp_recv(struct mp *m, const MPI_Status *st, struct mp_msg *out)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    char *buf = count > 0 ? malloc((size_t)count) : NULL;
    if (count > 0 && buf == NULL) {
        return -1;
    }
    if (MPI_Recv(buf, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, m->comm, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
        free(buf);
        return -1;
    }
    m->recv_from[st->MPI_SOURCE]++;
    *out = (struct mp_msg){st->MPI_TAG, st->MPI_SOURCE, buf, (size_t)count};
    return 0;
}

int mp_poll(struct mp *m, struct mp_msg *out)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m->comm, &flag, &st) != MPI_SUCCESS) {
            return -1;
        }
        if (!flag) {
            return 0;
        }
        if (mp_recv(m, &st, out) != 0) {
            return -1;
        }
        if (out->tag == MP_WORK) {
            m->work_balance--;
            m->black = true;
        }
        if (out->tag != MP_TOKEN) {
            return 1;
        }
        if (out->len >= 12) {
            int32_t black;
            memcpy(&m->token_count, out->buf, 8);
            memcpy(&black, out->buf + 8, 4);
            m->token_black = black != 0;
            m->have_token = true;
        }
        free(out->buf);
    }
}

/** Sends the token to the next rank. @return 0 or -1. */
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
    return mp_pass_token(m, 0, false) == 0 ? 0 : -1;
}

int mp_finish(struct mp *m)
{
    int rc = 0;
    uint64_t *expect = calloc((size_t)m->size, sizeof(uint64_t));
    if (expect == NULL || MPI_Alltoall(m->sent_to, 1, MPI_UINT64_T, expect, 1, MPI_UINT64_T,
                                       m->comm) != MPI_SUCCESS) {
        rc = -1;
    }
    for (int src = 0; rc == 0 && src < m->size; src++) {
        while (m->recv_from[src] < expect[src]) {
            MPI_Status st;
            struct mp_msg msg;
            if (MPI_Probe(src, MPI_ANY_TAG, m->comm, &st) != MPI_SUCCESS ||
                mp_recv(m, &st, &msg) != 0) {
                rc = -1;
                break;
            }
            free(msg.buf);
        }
    }
    for (size_t i = 0; i < m->nsends; i++) {
        if (rc == 0) {
            MPI_Wait(&m->sends[i].req, MPI_STATUS_IGNORE);
        }
        free(m->sends[i].buf);
    }
    free(expect);
    free(m->sends);
    free(m->sent_to);
    free(m->recv_from);
    *m = (struct mp){0};
    return rc;
}
