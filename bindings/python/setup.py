# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Builds the Python package frd with setuptools (pyproject.toml has its metadata).

The extension frd._frd is compiled from this project's C files (src/) and from frd's own C
sources: the library, its backend, its decoders and its walker, plus the tools' growth
helper. They come from the repository (../..) when building from a checkout, or from
vendor/frd/ in an sdist, which carries a copy of them (the sdist command below makes it):
so the sdist alone builds. Directories are globbed, not listed, so files added, renamed
or moved within them follow. Nothing is built beforehand: the two headers CMake generates
(frd_config.h from probes, frd_version.h from the project's version) are generated here
from the same templates, and libuv comes from the system (Debian: libuv1-dev).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join("vendor", "frd")

# What of frd the extension needs, relative to its root: globbed directories, and files.
VENDORED_GLOBS = ["lib/**/*.[ch]", "platform/*.[ch]", "decode/**/*.[ch]", "walker/**/*.[ch]"]
VENDORED_FILES = ["CMakeLists.txt", "LICENSE", "cmake/frd_config.h.in", "cmake/frd_version.h.in",
                  "examples/common/grow.c", "examples/common/grow.h"]
# The binding's own C files (in the sdist as they are).
OWN_SOURCES = sorted(glob.glob("src/*.c", root_dir=HERE))


def frd_root():
    """Where frd's C sources are: vendor/frd in an sdist, else the repository."""
    for root in (os.path.join(HERE, VENDOR), os.path.normpath(os.path.join(HERE, "..", ".."))):
        if os.path.isfile(os.path.join(root, "lib", "include", "frd.h")):
            return root
    sys.exit("frd: its C sources are not here: build from the repository's bindings/python "
             "or from an sdist of it")


def vendored(root):
    """The files of frd that an sdist carries, relative to root."""
    files = set(VENDORED_FILES)
    for pattern in VENDORED_GLOBS:
        files.update(glob.glob(pattern, root_dir=root, recursive=True))
    return sorted(files)


def frd_version(root):
    """The project's version, from project(frd VERSION x.y.z) in its CMakeLists.txt."""
    with open(os.path.join(root, "CMakeLists.txt")) as f:
        m = re.search(r"project\(\s*frd\s+VERSION\s+(\d+)\.(\d+)\.(\d+)", f.read())
    if m is None:
        sys.exit("frd: no project(frd VERSION x.y.z) in CMakeLists.txt")
    return tuple(int(x) for x in m.groups())


def configure(template, out, values):
    """Writes a CMake configure_file() template with its @NAME@ values filled in."""
    with open(template) as f:
        text = f.read()
    text = re.sub(r"@(\w+)@", lambda m: str(values[m.group(1)]), text)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)


def pkg_config(*args):
    """pkg-config's answer split in words, or None without pkg-config or the package."""
    try:
        res = subprocess.run(["pkg-config", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return res.stdout.split()


class build_frd_ext(build_ext):
    """build_ext that adds frd's sources, the generated headers and libuv to frd._frd."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1  # some 40 files to compile

    def probe(self, name, code, macros):
        """Whether `code` compiles (CMake's check_symbol_exists, compile only)."""
        tmp = tempfile.mkdtemp(prefix="probe-", dir=self.build_temp)
        try:
            src = os.path.join(tmp, name + ".c")
            with open(src, "w") as f:
                f.write(code)
            self.compiler.compile([src], output_dir=tmp, macros=macros,
                                  extra_postargs=["-Werror=implicit-function-declaration"])
            return True
        except Exception:  # distutils' CompileError, whose module moved between versions
            return False
        finally:
            shutil.rmtree(tmp)

    def build_extensions(self):
        root = frd_root()
        os.makedirs(self.build_temp, exist_ok=True)
        linux = sys.platform.startswith("linux")
        macros = [("_GNU_SOURCE", None), ("_FILE_OFFSET_BITS", "64")] if linux else \
            [("_DARWIN_C_SOURCE", None), ("_FILE_OFFSET_BITS", "64")]
        if not self.probe("uv", "#include <uv.h>\nint f(void) { return UV_VERSION_MAJOR; }\n",
                          macros):
            sys.exit("frd: libuv's headers are missing (Debian: apt-get install libuv1-dev)")
        generated = os.path.abspath(os.path.join(self.build_temp, "frd-generated"))
        major, minor, patch = frd_version(root)
        configure(os.path.join(root, "cmake", "frd_version.h.in"),
                  os.path.join(generated, "frd_version.h"),
                  {"FRD_VERSION_HEX": major * 10000 + minor * 100 + patch,
                   "PROJECT_VERSION": "%d.%d.%d" % (major, minor, patch),
                   "PROJECT_VERSION_MAJOR": major, "PROJECT_VERSION_MINOR": minor,
                   "PROJECT_VERSION_PATCH": patch})
        configure(os.path.join(root, "cmake", "frd_config.h.in"),
                  os.path.join(generated, "frd_config.h"), {
                      "FRD_HAS_DIRENT_D_TYPE": int(self.probe(
                          "d_type", "#include <dirent.h>\n"
                          "int f(struct dirent *d) { return d->d_type; }\n", macros)),
                      "FRD_HAS_STATX": int(self.probe(
                          "statx", "#include <sys/stat.h>\n"
                          "int f(struct statx *s) { return statx(0, \"\", 0, 0, s); }\n",
                          macros)),
                      "FRD_HAS_BACKSLASH_SEPARATOR": 0})
        # The backend CMake picks (FRD_BACKEND auto): Linux's, else the portable one.
        backend = ["platform/linux.c" if linux else "platform/posix.c", "platform/unix.c",
                   "platform/xattr_unix.c"]
        sources = backend + sorted(
            f for pattern in ("lib/**/*.c", "decode/**/*.c", "walker/**/*.c")
            for f in glob.glob(pattern, root_dir=root, recursive=True))
        sources.append("examples/common/grow.c")
        # As CMakeLists.txt's frd_objects: walker/ itself, never its subfolders, whose
        # headers (sched/sched.h) would shadow the system's <sched.h>.
        includes = [generated, "lib/include", "lib", "platform", "decode", "examples/common",
                    "walker"]
        uv_cflags = pkg_config("--cflags", "libuv") or []
        uv_libs = pkg_config("--libs", "libuv") or ["-luv"]
        for ext in self.extensions:
            ext.sources = OWN_SOURCES + [os.path.join(root, f) for f in sources]
            ext.include_dirs = ["src"] + [i if os.path.isabs(i) else os.path.join(root, i)
                                          for i in includes]
            ext.define_macros = macros
            ext.extra_compile_args = ["-std=c11", "-fvisibility=hidden", *uv_cflags]
            ext.extra_link_args = list(uv_libs)
            if linux:
                # Only PyInit__frd leaves the module: frd's own symbols stay inside, so
                # another copy of frd in the process never meets this one.
                script = os.path.join(self.build_temp, "_frd.map")
                with open(script, "w") as f:
                    f.write("{ global: PyInit__frd; local: *; };\n")
                ext.extra_link_args.append("-Wl,--version-script=" + script)
        super().build_extensions()


class sdist_with_frd(sdist):
    """sdist that carries frd's C sources in vendor/frd, and the license as a file."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        root = frd_root()
        for rel in vendored(root):
            dest = os.path.join(base_dir, VENDOR, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(root, rel), dest)
        license_file = os.path.join(base_dir, "LICENSE")
        if os.path.islink(license_file) or not os.path.exists(license_file):
            if os.path.lexists(license_file):
                os.unlink(license_file)
            shutil.copy2(os.path.join(root, "LICENSE"), license_file)


setup(
    version="%d.%d.%d" % frd_version(frd_root()),
    ext_modules=[Extension("frd._frd", sources=OWN_SOURCES)],
    cmdclass={"build_ext": build_frd_ext, "sdist": sdist_with_frd},
)
