// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's task heap (walker/ordered/heap.c) alone: nodes of made-up trees pushed
 * in any order come off in pre-order (ancestor first, then by place in the parent's sorted
 * listing), by their 128-bit labels where they have one and by their ancestors where the
 * labels ran out; a node's next sibling is pushed when it is taken; prunes reach the
 * subtree below. Debug builds also check the heap's order at every step (heap_check_at).
 */
#include "core/core.h"
#include "ordered/heap.h"
#include "ordered/ordered_int.h"
#include "test_rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/** The nodes of one made-up tree: a walk and a worker only as node.c needs them. */
static struct frd_walk walk;
static struct frd__worker w;
static struct frd__ordered o;

/** Nodes in pre-order as they were made (a depth-first build), and how many. */
static struct frd__wnode **made;
static size_t nmade;
static size_t made_cap;

static int heap_setup(void **state)
{
    (void)state;
    memset(&walk, 0, sizeof(walk));
    memset(&w, 0, sizeof(w));
    memset(&o, 0, sizeof(o));
    w.walk = &walk;
    nmade = 0;
    return 0;
}

static int heap_teardown(void **state)
{
    (void)state;
    frd__free(o.heap);
    frd__node_cache_free(&w.nodes);
    free(made);
    made = NULL;
    made_cap = 0;
    return 0;
}

static void keep(struct frd__wnode *n)
{
    if (nmade == made_cap) {
        made_cap = made_cap ? 2 * made_cap : 1024;
        made = realloc(made, made_cap * sizeof(*made));
        assert_non_null(made);
    }
    made[nmade++] = n;
}

/** A root, labeled as the walk labels one (no bits used), at index `index`. */
static struct frd__wnode *root_node(unsigned index)
{
    char name[32];
    snprintf(name, sizeof(name), "root%u", index);
    struct frd__wnode *r = frd__wnode_new(&w, NULL, name, strlen(name));
    assert_non_null(r);
    r->flags |= WN_ROOT;
    r->root_index = index;
    r->ord = index;
    return r;
}

/** Child `ord` of `parent`, whose listing holds `n` entries (its label bits set from n). */
static struct frd__wnode *child_node(struct frd__wnode *parent, size_t n, size_t ord)
{
    char name[32];
    snprintf(name, sizeof(name), "c%lu", (unsigned long)ord);
    frd__o_label_bits(parent, n);
    struct frd__wnode *c = frd__wnode_new(&w, parent, name, strlen(name));
    assert_non_null(c);
    c->ord = (uint32_t)ord;
    frd__o_label_child(parent, c, ord);
    return c;
}

static uint64_t rng = 0x243F6A8885A308D3u;

static uint64_t rnd(void)
{
    return test_rng_next(&rng);
}

/** Builds below `dir` a random subtree `levels` deep, in pre-order into made[]; a listing
 *  has `width` entries, of which some are subdirectories. */
static void build(struct frd__wnode *dir, unsigned levels, size_t width)
{
    if (levels == 0) {
        return;
    }
    for (size_t ord = 0; ord < width; ord++) {
        if (rnd() % 2 != 0) {
            continue; // a file: no node
        }
        struct frd__wnode *c = child_node(dir, width, ord);
        keep(c);
        build(c, levels - 1, 2 + (size_t)(rnd() % 8));
    }
}

/** Pushes made[] in a random order, pops them all: they must come in pre-order. */
static void push_shuffled_pop_in_order(void)
{
    size_t *perm = malloc(nmade * sizeof(*perm));
    assert_non_null(perm);
    for (size_t i = 0; i < nmade; i++) {
        perm[i] = i;
    }
    for (size_t i = nmade; i > 1; i--) {
        size_t j = (size_t)(rnd() % i);
        size_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < nmade; i++) {
        assert_int_equal(frd__oheap_push(&o, made[perm[i]]), 0);
    }
    assert_int_equal(o.heap_n, nmade);
    for (size_t i = 0; i < nmade; i++) {
        struct frd__wnode *n = frd__oheap_pop(&o);
        if (n != made[i]) {
            print_error("pop %lu: %s at depth %u, expected %s at depth %u\n", (unsigned long)i,
                        n->name, n->depth, made[i]->name, made[i]->depth);
        }
        assert_ptr_equal(n, made[i]);
    }
    assert_int_equal(o.heap_n, 0);
    free(perm);
}

static void test_heap_pops_labeled_nodes_in_pre_order(void **state)
{
    (void)state;
    struct frd__wnode *r = root_node(0);
    keep(r);
    build(r, 6, 12);
    assert_true(nmade > 50);
    for (size_t i = 0; i < nmade; i++) {
        assert_true(made[i]->pre_used != FRD__PRE_NONE); // small listings: all labeled
    }
    push_shuffled_pop_in_order();
}

static void test_heap_pops_nodes_past_their_labels_in_pre_order(void **state)
{
    (void)state;
    // Listings of a million entries take 20 bits a level: from the 7th level down the labels
    // have run out (128 bits) and the heap compares by walking the ancestors. A chain of 9
    // such levels, each directory with a sibling before the chain's next one and one after.
    enum { LEVELS = 9 };
    const size_t n = 1000000;
    struct frd__wnode *before[LEVELS], *next[LEVELS], *after[LEVELS];
    struct frd__wnode *r = root_node(0);
    struct frd__wnode *dir = r;
    for (size_t l = 0; l < LEVELS; l++) {
        before[l] = child_node(dir, n, 10);
        next[l] = child_node(dir, n, 500000 + l);
        after[l] = child_node(dir, n, n - 1);
        dir = next[l];
    }
    // Pre-order: the root, each level's `before` and `next`, then the `after`s from the
    // deepest up (each comes after the subtree of the `next` beside it).
    keep(r);
    for (size_t l = 0; l < LEVELS; l++) {
        keep(before[l]);
        keep(next[l]);
    }
    for (size_t l = LEVELS; l-- > 0;) {
        keep(after[l]);
    }
    assert_true(next[5]->pre_used == 120);
    assert_true(next[6]->pre_used == FRD__PRE_NONE && after[8]->pre_used == FRD__PRE_NONE);
    push_shuffled_pop_in_order();
}

static void test_heap_orders_roots_by_their_index(void **state)
{
    (void)state;
    struct frd__wnode *r0 = root_node(0);
    keep(r0);
    build(r0, 3, 8);
    struct frd__wnode *r1 = root_node(1);
    keep(r1);
    build(r1, 3, 8);
    struct frd__wnode *r2 = root_node(2);
    keep(r2);
    build(r2, 3, 8);
    push_shuffled_pop_in_order();
}

static void test_heap_pop_pushes_the_next_sibling(void **state)
{
    (void)state;
    struct frd__wnode *r = root_node(0);
    struct frd__wnode *c[4];
    for (size_t i = 0; i < 4; i++) {
        c[i] = child_node(r, 4, i);
    }
    // A listing's subdirectories go on as one chain: the first on the heap, each next
    // pushed when the one before it is taken.
    c[0]->next_sib = c[1];
    c[1]->next_sib = c[2];
    c[2]->next_sib = c[3];
    struct frd__wnode *g = child_node(c[0], 2, 1); // below c0: before c1
    assert_int_equal(frd__oheap_push(&o, c[0]), 0);
    assert_int_equal(frd__oheap_push(&o, g), 0);
    assert_int_equal(o.heap_n, 2);
    assert_ptr_equal(frd__oheap_pop(&o), c[0]);
    assert_null(c[0]->next_sib);
    assert_int_equal(o.heap_n, 2); // g, and c1 pushed in c0's place
    assert_ptr_equal(frd__oheap_pop(&o), g);
    assert_ptr_equal(frd__oheap_pop(&o), c[1]);
    assert_ptr_equal(frd__oheap_pop(&o), c[2]);
    assert_ptr_equal(frd__oheap_pop(&o), c[3]);
    assert_int_equal(o.heap_n, 0);
}

static void test_heap_labels_take_the_bits_of_the_listing(void **state)
{
    (void)state;
    struct frd__wnode *r = root_node(0);
    frd__o_label_bits(r, 1);
    assert_int_equal(r->pre_child_bits, 1); // ord + 1 = 1 fits in one bit
    frd__o_label_bits(r, 255);
    assert_int_equal(r->pre_child_bits, 8);
    frd__o_label_bits(r, 256);
    assert_int_equal(r->pre_child_bits, 9);
    struct frd__wnode *a = child_node(r, 256, 0);
    struct frd__wnode *b = child_node(r, 256, 255);
    assert_int_equal(a->pre_used, 9);
    assert_int_equal(b->pre_used, 9);
    // ord + 1 in the top 9 bits: a is 1, b is 256.
    assert_true(a->pre[0] == (uint64_t)1 << (64 - 9) && a->pre[1] == 0);
    assert_true(b->pre[0] == (uint64_t)256 << (64 - 9) && b->pre[1] == 0);
}

static void test_heap_prune_reaches_the_subtree_only(void **state)
{
    (void)state;
    struct frd__wnode *r = root_node(0);
    struct frd__wnode *a = child_node(r, 2, 0);
    struct frd__wnode *b = child_node(r, 2, 1);
    struct frd__wnode *aa = child_node(a, 1, 0);
    assert_false(frd__o_chain_pruned(&o, aa)); // nothing pruned: no walk up at all
    frd__o_prune(&o, a);
    assert_true(frd__o_chain_pruned(&o, a));
    assert_true(frd__o_chain_pruned(&o, aa));
    assert_false(frd__o_chain_pruned(&o, b));
    assert_false(frd__o_chain_pruned(&o, r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_heap_pops_labeled_nodes_in_pre_order, heap_setup,
                                        heap_teardown),
        cmocka_unit_test_setup_teardown(test_heap_pops_nodes_past_their_labels_in_pre_order,
                                        heap_setup, heap_teardown),
        cmocka_unit_test_setup_teardown(test_heap_orders_roots_by_their_index, heap_setup,
                                        heap_teardown),
        cmocka_unit_test_setup_teardown(test_heap_pop_pushes_the_next_sibling, heap_setup,
                                        heap_teardown),
        cmocka_unit_test_setup_teardown(test_heap_labels_take_the_bits_of_the_listing, heap_setup,
                                        heap_teardown),
        cmocka_unit_test_setup_teardown(test_heap_prune_reaches_the_subtree_only, heap_setup,
                                        heap_teardown),
    };
    return cmocka_run_group_tests_name("heap", tests, NULL, NULL);
}
