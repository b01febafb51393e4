// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for ignore rules (walker/ignore/): the input up to its first NUL is a
 * .gitignore, the rest a path. Parsing and matching never crash, loop or read out of
 * bounds, whatever the rules (malformed classes, trailing '\', '**' runs); and the path's
 * components, each written with every byte escaped, match the path exactly, and "**"
 * matches it too (properties git's wildmatch has).
 */
#include "ignore/rules.h"
#include "ignore/wildmatch.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t rules_len = nul != NULL ? (size_t)(nul - text) : size;
    const char *path = nul != NULL ? nul + 1 : "";
    size_t path_len = nul != NULL ? size - rules_len - 1 : 0;
    if (memchr(path, '\0', path_len) != NULL) {
        return 0; // paths hold no NUL
    }
    struct frd__ign_rules r = {0};
    if (frd__ign_parse(&r, text, rules_len, (size & 1) != 0) == 0) {
        (void)frd__ign_rules_match(&r, path, path_len, true);
        (void)frd__ign_rules_match(&r, path, path_len, false);
    }
    frd__ign_rules_free(&r);
    // The path, every byte escaped, is a literal of itself.
    char *esc = malloc(2 * path_len + 1);
    if (esc == NULL) {
        return 0;
    }
    for (size_t i = 0; i < path_len; i++) {
        esc[2 * i] = '\\';
        esc[2 * i + 1] = path[i];
    }
    struct frd__wm wm;
    if (frd__wm_compile(&wm, esc, 2 * path_len, false) == 0) {
        if (!frd__wm_match(&wm, path, path_len)) {
            abort();
        }
        frd__wm_free(&wm);
    }
    free(esc);
    if (frd__wm_compile(&wm, "**", 2, false) == 0) {
        if (!frd__wm_match(&wm, path, path_len)) {
            abort();
        }
        frd__wm_free(&wm);
    }
    return 0;
}
