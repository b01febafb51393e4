// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Entry lists: an array of entries and one arena holding their names, both reused.
 *
 * Names live back to back in the arena, each followed by its NUL, in the order they were
 * appended. When the arena has to grow, the names move to a block twice the size and every
 * entry's name pointer is rebased; growth doubles, so that costs O(1) per entry amortized.
 * Because names are laid out in append order, a name's address is also its sequence number,
 * which is what makes the sort below stable without storing anything extra. The struct is in
 * internal.h, where frd__list_push() appends in place while there is room; its growth is
 * here (frd__list_grow()).
 */
#include "internal.h"
#include "introsort.h"

#include <string.h>

int frd_list_new(struct frd_list **out)
{
    if (out == NULL) {
        return FRD_EINVAL;
    }
    *out = frd__calloc(1, sizeof(**out));
    return *out ? 0 : FRD_ENOMEM;
}

void frd_list_free(struct frd_list *list)
{
    if (list == NULL) {
        return;
    }
    frd__free(list->entries);
    frd__free(list->arena);
    frd__free(list->keys);
    frd__free(list);
}

void frd_list_clear(struct frd_list *list)
{
    list->count = 0;
    list->arena_used = 0;
}

size_t frd_list_count(const struct frd_list *list)
{
    return list->count;
}

const struct frd_entry *frd_list_entries(const struct frd_list *list)
{
    return list->count ? list->entries : NULL;
}

size_t frd__list_allocations(const struct frd_list *list)
{
    return list->allocations;
}

static int list_reserve_entries(struct frd_list *list)
{
    int rc = FRD__RESERVE(list->entries, list->capacity, list->count + 1, 256);
    if (rc < 0) {
        return rc;
    }
    list->allocations += (size_t)rc;
    return 0;
}

static int list_reserve_arena(struct frd_list *list, size_t need)
{
    if (need <= list->arena_capacity - list->arena_used) {
        return 0;
    }
    size_t capacity;
    if (need > SIZE_MAX - list->arena_used ||
        frd__grow_cap(list->arena_capacity, list->arena_used + need, 16384, 1, &capacity) < 0) {
        return FRD_ENOMEM;
    }
    // A fresh block and a copy rather than realloc: rebasing the names needs the old block
    // still valid (arithmetic on a pointer into freed memory is undefined).
    char *arena = frd__malloc(capacity);
    if (arena == NULL) {
        return FRD_ENOMEM;
    }
    list->allocations++;
    if (list->arena_used > 0) {
        memcpy(arena, list->arena, list->arena_used);
    }
    for (size_t i = 0; i < list->count; i++) {
        struct frd_entry *e = &list->entries[i];
        e->name = arena + (e->name - list->arena);
    }
    frd__free(list->arena);
    list->arena = arena;
    list->arena_capacity = capacity;
    return 0;
}

int frd__list_grow(struct frd_list *list, size_t name_len)
{
    if (name_len == SIZE_MAX || list_reserve_entries(list) < 0 ||
        list_reserve_arena(list, name_len + 1) < 0) {
        return -1;
    }
    return 0;
}

void frd__list_pop(struct frd_list *list)
{
    FRD_ASSERT(list->count > 0);
    struct frd_entry *e = &list->entries[--list->count];
    list->arena_used -= e->name_len + 1;
}

int frd_list_append(struct frd_list *list, const struct frd_entry *entry)
{
    if (list == NULL || entry == NULL || entry->name == NULL) {
        return FRD_EINVAL;
    }
    struct frd_entry copy = *entry;
    struct frd_entry *e = frd__list_push(list, entry->name, entry->name_len);
    if (e == NULL) {
        return FRD_ENOMEM;
    }
    copy.name = e->name;
    *e = copy;
    return 0;
}

/* The S_IFMT values of POSIX's <sys/stat.h>, the same on every Unix (platform/unix_types.h
 * checks them against the system's); Windows' CRT lacks some, so they are spelled here. */
#define MODE_FMT  0170000u
#define MODE_SOCK 0140000u
#define MODE_LNK  0120000u
#define MODE_REG  0100000u
#define MODE_BLK  0060000u
#define MODE_DIR  0040000u
#define MODE_CHR  0020000u
#define MODE_FIFO 0010000u

enum frd_type frd_type_from_mode(unsigned mode)
{
    switch (mode & MODE_FMT) {
    case MODE_REG:
        return FRD_TYPE_REG;
    case MODE_DIR:
        return FRD_TYPE_DIR;
    case MODE_LNK:
        return FRD_TYPE_LNK;
    case MODE_FIFO:
        return FRD_TYPE_FIFO;
    case MODE_SOCK:
        return FRD_TYPE_SOCK;
    case MODE_CHR:
        return FRD_TYPE_CHR;
    case MODE_BLK:
        return FRD_TYPE_BLK;
    default:
        return FRD_TYPE_UNKNOWN;
    }
}

char frd_type_letter(enum frd_type type)
{
    switch (type) {
    case FRD_TYPE_REG:
        return 'f';
    case FRD_TYPE_DIR:
        return 'd';
    case FRD_TYPE_LNK:
        return 'l';
    case FRD_TYPE_FIFO:
        return 'p';
    case FRD_TYPE_SOCK:
        return 's';
    case FRD_TYPE_CHR:
        return 'c';
    case FRD_TYPE_BLK:
        return 'b';
    default:
        return 'U';
    }
}

int frd_entry_cmp_name(const struct frd_entry *a, const struct frd_entry *b)
{
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    if (c != 0) {
        return c;
    }
    return (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

bool frd_entry_same(const struct frd_entry *a, const struct frd_entry *b)
{
    return frd_entry_cmp_name(a, b) == 0 && a->type == b->type && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns && a->file_id == b->file_id &&
           a->dev == b->dev && a->nlink == b->nlink && a->mode == b->mode && a->uid == b->uid &&
           a->gid == b->gid && a->rdev == b->rdev && a->btime_ns == b->btime_ns &&
           a->attributes == b->attributes && a->attributes_known == b->attributes_known &&
           a->fields == b->fields && a->error == b->error;
}

// Sorting. The order is by name, then by position in the arena (append order), which is a
// total order over the entries of one list: any correct sort under it is a stable sort by
// name. An introsort (quicksort, heapsort past a depth limit, insertion sort for short
// runs) does it in place with no allocation.

static bool sort_less(const void *ctx, const struct frd_entry *a, const struct frd_entry *b)
{
    (void)ctx;
    int c = frd_entry_cmp_name(a, b);
    if (c != 0) {
        return c < 0;
    }
    return (uintptr_t)a->name < (uintptr_t)b->name;
}

FRD__INTROSORT(sort_entries, struct frd_entry, const void *, sort_less)

/** A sort record: the name's first 8 bytes as a number, and the entry's index. Sorting
 *  these and then moving each entry once costs a fraction of sorting the entries. */
struct list_key {
    uint64_t key;
    size_t index;
};

static bool key_less(const struct frd_entry *v, const struct list_key *a, const struct list_key *b)
{
    if (a->key != b->key) {
        return a->key < b->key;
    }
    return sort_less(NULL, &v[a->index], &v[b->index]);
}

FRD__INTROSORT(sort_keys, struct list_key, const struct frd_entry *, key_less)

void frd_list_sort(struct frd_list *list)
{
    size_t n = list->count;
    struct frd_entry *v = list->entries;
    int rc = n > 16 ? FRD__RESERVE(list->keys, list->keys_cap, n, 64) : FRD_ENOMEM;
    if (rc < 0) {
        sort_entries(NULL, v, n); // short, or no memory for the records: the entries
        return;
    }
    list->allocations += (size_t)rc;
    struct list_key *k = list->keys;
    for (size_t i = 0; i < n; i++) {
        k[i].key = frd__name_key(v[i].name, v[i].name_len);
        k[i].index = i;
    }
    sort_keys(v, k, n);
    // Position i takes entry k[i].index: follow each cycle of that permutation with one
    // entry set aside, marking the positions filled (index = own position).
    for (size_t i = 0; i < n; i++) {
        if (k[i].index == i) {
            continue;
        }
        struct frd_entry t = v[i];
        size_t j = i;
        for (;;) {
            size_t from = k[j].index;
            k[j].index = j;
            if (from == i) {
                v[j] = t;
                break;
            }
            v[j] = v[from];
            j = from;
        }
    }
}
