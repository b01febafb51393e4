#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# Checks that frd's modules depend one way (lib/README.md draws them): includes never point
# up a layer or into another module of the same layer, a module's private header is
# included by its own files only, nothing in the library calls realloc but its growth
# helper, and, given a built BUILD_DIR, the library's source files call each other in no
# cycle and never up (read from the object files' symbols with nm). The table of modules
# is in scripts/check-layers.py.
#
# Usage: scripts/check-layers.sh [BUILD_DIR]   (--figures BUILD_DIR: the walker's figures)
# Exits 1 and names each offence, or 2 for a file no module places.
set -euo pipefail
exec python3 "$(dirname "$0")/check-layers.py" "$@"
