# The addon: src/addon.cc linked with the static libfrd that scripts/build.js builds first.
# No libuv on the link line: Node exports uv_* and the addon uses those.
{
  "targets": [{
    "target_name": "frd",
    "sources": ["src/addon.cc"],
    "include_dirs": [
      "<!(node -p \"require('node-addon-api').include_dir\")",
      "../../lib/include",
      "build-frd/include"
    ],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags_cc": ["-std=c++17", "-O2"],
    "libraries": ["<(module_root_dir)/build-frd/libfrd.a", "-Wl,--exclude-libs,ALL"]
  }]
}
