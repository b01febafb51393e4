# The addon: src/addon.cc and the frd C library's own sources, compiled together against the
# headers of the Node that builds it (scripts/install.js points node-gyp at them). The
# library's files are found by directory (scripts/frd-sources.js), its frd_config.h and
# frd_version.h generated from cmake/*.h.in. No libuv on the link line: Node exports uv_*
# and the library uses those, through the uv.h in Node's headers.
{
  "targets": [{
    "target_name": "frd",
    "sources": ["src/addon.cc", "<!@(node scripts/frd-sources.js sources)"],
    "include_dirs": [
      "<!(node -p \"require('node-addon-api').include_dir\")",
      "<!@(node scripts/frd-sources.js include_dirs)",
      "<!(node scripts/frd-sources.js configure build/frd-generated)"
    ],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS",
      # A throw while a worker thread is being terminated returns quietly instead of ending
      # the process (napi_throw cannot throw into an environment that runs no JavaScript).
      "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
    "cflags_cc": ["-std=c++17", "-O2"],
    # The library's flags of CMakeLists.txt's Release build: C11, -O3 (Node's common.gypi),
    # NDEBUG, hidden symbols, its feature macros; and no frame pointer (Node's gypi asks for
    # one for the addon's C++, which keeps it).
    "cflags_c": ["-std=c11", "-DNDEBUG", "-fvisibility=hidden", "-fomit-frame-pointer",
      "-D_GNU_SOURCE", "-DFRD_UTF16_SCALAR=0"],
    "conditions": [
      ["OS=='linux'", {
        # Only the module's entry points are exported: frd_* stay inside the addon, and
        # their calls are direct, not through the PLT.
        "ldflags": ["-Wl,--version-script=<(module_root_dir)/src/exports.map"]
      }],
      ["OS=='mac'", {
        # (not built or tested on macOS yet)
        "xcode_settings": {
          "GCC_C_LANGUAGE_STANDARD": "c11",
          "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
          "OTHER_CFLAGS": ["-DNDEBUG", "-D_DARWIN_C_SOURCE", "-DFRD_UTF16_SCALAR=0"]
        }
      }]
    ]
  }]
}
