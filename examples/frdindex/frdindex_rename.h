// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Rename detection: matching entries an update added with files whose old path is gone. */
#ifndef FRD_EXAMPLES_FRDINDEX_RENAME_H
#define FRD_EXAMPLES_FRDINDEX_RENAME_H

#include "frdindex_dirs.h"
#include "frdindex_map.h"

/** An entry an update added (and inserted as row.id), which may turn out to be a rename. */
struct index_added_entry {
    struct index_row row;
    uint64_t key_off; /**< offset of its key (frdindex_dirs.h) in the list's arena */
    uint32_t key_len;
};

/** The entries an update added, with their keys in one arena. Zero-initialise it. */
struct index_added {
    struct index_added_entry *entries;
    size_t count, cap;
    char *arena;
    size_t arena_len, arena_cap;
};

/** Appends an added entry (its key copied). @return 0, or -1 when out of memory. */
int index_added_push(struct index_added *added, const struct index_row *row, const char *key,
                     size_t len);

/** @return the key of an entry. */
static inline const char *index_added_key(const struct index_added *added,
                                          const struct index_added_entry *e)
{
    return added->arena + e->key_off;
}

/** Frees what the list holds. */
void index_added_free(struct index_added *added);

/** A matched rename, before it is written. */
struct index_rename {
    long source;              /**< item index of the old row in the map */
    size_t target;            /**< index in the added list */
    enum index_change change; /**< INDEX_RENAMED or INDEX_RENAMED_WITH_PARENT */
};

/**
 * Matches added paths with files that were indexed at a path now gone (map items still
 * INDEX_MARK_UNSEEN) or that another file replaced (items with rename_source set): same
 * device and file id on a volume whose ids persist, same type, and for anything but a
 * directory the same size and mtime. Each old file matches one new path. Then marks as
 * INDEX_RENAMED_WITH_PARENT the renames that only follow a renamed directory above them.
 * Sets rename_source on the map's candidate items and clears it on the matched ones.
 * @return the pairs (free() them) and their count in *npairs; NULL with *npairs = 0 when there
 * are none; sets *failed (and returns NULL) when out of memory.
 */
struct index_rename *index_match_renames(struct index_map *map, const struct index_added *added,
                                         struct index_dirs *dirs, size_t *npairs, bool *failed);

#endif // FRD_EXAMPLES_FRDINDEX_RENAME_H
