# SPDX-License-Identifier: MIT
# Cross-compiles frd for 64-bit Windows with Debian's mingw-w64 (gcc-mingw-w64-x86-64).
#
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake \
#         -DFRD_MINGW_DEPS=/path/to/prefix     # where libuv and cmocka for mingw live
#
# Programs built here run under Wine (tests/run-windows.sh does both steps).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(FRD_MINGW_TRIPLE x86_64-w64-mingw32 CACHE STRING "mingw-w64 target triple")
set(CMAKE_C_COMPILER ${FRD_MINGW_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${FRD_MINGW_TRIPLE}-g++)
set(CMAKE_RC_COMPILER ${FRD_MINGW_TRIPLE}-windres)

# Look for libraries and headers in the mingw sysroot and the dependency prefix only, and
# for programs (pkg-config, wine) on the build machine.
set(FRD_MINGW_DEPS "" CACHE PATH "Prefix holding libuv and cmocka built for mingw-w64")
set(CMAKE_FIND_ROOT_PATH /usr/${FRD_MINGW_TRIPLE} ${FRD_MINGW_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
if(FRD_MINGW_DEPS)
  set(ENV{PKG_CONFIG_LIBDIR} "${FRD_MINGW_DEPS}/lib/pkgconfig")
  set(ENV{PKG_CONFIG_PATH} "")
endif()

# Link the compiler's runtime statically so the .exe files need no DLL beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++")

find_program(FRD_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(FRD_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FRD_WINE})
endif()
