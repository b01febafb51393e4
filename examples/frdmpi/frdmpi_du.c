// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** stub */
#include "frdmpi.h"
int fm_du_main(struct fm_run *run, int argc, char **argv){(void)run;(void)argc;(void)argv;return 2;}
