// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** An embedding program built against an installed frd: lists "/" and checks the result. */
#include <frd.h>
#include <stdio.h>

int main(void)
{
    struct frd_list *list;
    if (frd_list_new(&list) < 0) {
        return 1;
    }
    int n = frd_read_dir("/", 0, list);
    printf("consumer: %d entries in /, frd %u\n", n, frd_version());
    frd_list_free(list);
    return n > 0 ? 0 : 1;
}
