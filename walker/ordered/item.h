// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's items (walker/ordered/item.c): one entry of a listing as a worker
 * resolved it for the consumer, 24 bytes where a whole entry is 136, with a full slot beside
 * it for what it cannot hold; and the child nodes they make, pushed onto the task heap.
 */
#ifndef FRD_WALKER_ORDERED_ITEM_H
#define FRD_WALKER_ORDERED_ITEM_H

#include "core/core.h"

#include <string.h>

struct frd__ordered;

/** The fields an item holds itself; an entry with others (even only the dev, which a
 *  listing without stat does not give) is kept whole (struct o_full). */
#define O_BARE_FIELDS (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)

/** What an item keeps beside it, in the slot of the same index of an array that goes with
 *  the items (a result's fulls, a large listing's slot_fulls; the item holds no pointer to
 *  it): the whole entry, where the walk wants more of it than an item holds, and what went
 *  wrong resolving it. Untouched (never faulted in) for a bare item. */
struct o_full {
    struct frd_entry entry;        /**< with O_IT_WHOLE (name: set by the consumer) */
    struct frd__identity id;       /**< with O_IT_WHOLE and has_id, for visit-once walks */
    const struct frd__wnode *loop; /**< with O_IT_ERR, FRD_ELOOP from a loop: the ancestor */
    struct frd__failure err_op;    /**< with O_IT_ERR */
    int err;                       /**< with O_IT_ERR: the failure to report */
    bool has_id;                   /**< with O_IT_WHOLE */
    bool followed;                 /**< with O_IT_WHOLE: a link the walk followed */
    bool persistent;               /**< with O_IT_WHOLE */
};

/** Item flags (o_item.flags). */
enum o_item_flag {
    O_IT_SKIP = 1u << 0,  /**< not visited (hidden, vanished, a loop not to report twice) */
    O_IT_WHOLE = 1u << 1, /**< full->entry is the entry, with id, followed, persistent */
    O_IT_ERR = 1u << 2,   /**< full->err, err_op, loop: a failure to report first */
    O_IT_TYPE = 1u << 3,  /**< a bare entry's fields: FRD_FIELD_TYPE */
    O_IT_FILE_ID = 1u << 4,
};

/**
 * One entry of a listing, resolved by a worker. Most walks want no more of an entry than
 * its name, type and inode, which the item holds itself in 24 bytes (a whole entry is 136):
 * the read-ahead is that much less memory for the workers to write and for the consumer
 * to read from their caches, the cost that grows with a second thread. An entry with more
 * (stat fields, an identity, a link followed, an error) uses its full slot as well (the
 * slot of the same index; 40-byte items that held a pointer to it and the dev took the
 * /usr walk 100 more page faults and 1% more time). The consumer rebuilds the entry for
 * its visit: frd__o_item_entry().
 */
struct o_item {
    struct frd__wnode *child; /**< node to descend into, or NULL */
    uint64_t file_id;         /**< a bare entry's file_id */
    uint32_t name_off;        /**< in the result's names (a listing of one batch: below 4 GiB) */
    uint16_t name_len;        /**< a bare entry's name_len (a longer name: O_IT_WHOLE) */
    uint8_t type;             /**< a bare entry's type */
    uint8_t flags;            /**< enum o_item_flag */
};
_Static_assert(sizeof(struct o_item) <= 24, "an item stays within 24 bytes");

/**
 * The entry of an item for its visit, named `name`: the whole one (in `full`, the item's
 * slot), or one rebuilt in `bare` from what the item holds. `bare` is zeroed once by the
 * caller and used for nothing else: only the fields an item holds are written here
 * (callbacks get it const). Consumer only. @return it.
 */
static inline struct frd_entry *frd__o_item_entry(struct o_item *it, struct o_full *full,
                                                  const char *name, struct frd_entry *bare)
{
    struct frd_entry *e;
    if (it->flags & O_IT_WHOLE) {
        e = &full->entry;
    } else {
        e = bare;
        e->name_len = it->name_len;
        e->type = (enum frd_type)it->type;
        e->fields = ((it->flags & O_IT_TYPE) ? FRD_FIELD_TYPE : 0u) |
                    ((it->flags & O_IT_FILE_ID) ? FRD_FIELD_FILE_ID : 0u);
        e->file_id = it->file_id;
    }
    e->name = name;
    return e;
}

/**
 * Fills an item from an entry of node's listing (open as fd): resolves it (links, loops)
 * and makes the node of a subdirectory to descend into, `ord` its place in the listing.
 * *keep: children hold the descriptor (decided at the first child, if not before).
 * `full`: the item's full slot (written only for an entry an item cannot hold alone).
 */
void frd__o_item_fill(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                      enum frd__vol_class cls, const struct frd_entry *e, bool no_descent,
                      size_t ord, bool *keep, struct o_item *it, struct o_full *full);
/** Pushes the child nodes of items onto the heap and wakes workers for them (mu held);
 *  no room: *list_err and *list_op say so, those children are dropped. */
void frd__o_push_children(struct frd__worker *w, struct frd__ordered *o, struct o_item *items,
                          size_t n, int *list_err, struct frd__failure *list_op);

#endif // FRD_WALKER_ORDERED_ITEM_H
