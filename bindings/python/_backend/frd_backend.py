# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""The package's PEP 517 build backend: setuptools', and a wheel writer of its own for
where the `wheel` package is missing.

setuptools 66 (Debian 12's) makes wheels with the `wheel` package's bdist_wheel. A fresh
venv of Debian's python3 holds pip and setuptools only, and PyPI may be out of reach, so
`v/bin/pip install --no-build-isolation ./bindings/python` would fail there ("invalid
command 'bdist_wheel'"). Where `wheel` is importable every hook is setuptools' own;
where it is not, the wheel is written here: setup.py's `build` and `egg_info` commands
(which need no `wheel`) into a scratch folder, then the files, their metadata (the
egg-info's PKG-INFO is the METADATA) and RECORD zipped as the wheel format 1.0 says.
"""
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (build_sdist, get_requires_for_build_sdist,  # noqa: F401
                                   SetupRequirementsError)

try:
    import wheel.bdist_wheel  # noqa: F401
    _HAVE_WHEEL = True
except ImportError:
    _HAVE_WHEEL = False

__all__ = ["build_sdist", "build_wheel", "get_requires_for_build_sdist",
           "get_requires_for_build_wheel"]

if _HAVE_WHEEL:
    from setuptools.build_meta import (build_editable,  # noqa: F401
                                       get_requires_for_build_editable,
                                       prepare_metadata_for_build_editable,
                                       prepare_metadata_for_build_wheel)
    __all__ += ["build_editable", "get_requires_for_build_editable",
                "prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel"]
# Without `wheel` there is no prepare_metadata_for_build_wheel: frontends then take the
# metadata from the wheel itself (PEP 517).


def get_requires_for_build_wheel(config_settings=None):
    if _HAVE_WHEEL:
        return _setuptools.get_requires_for_build_wheel(config_settings)
    return []  # setuptools' answer is ["wheel"], which this backend does without


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if _HAVE_WHEEL:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return _write_wheel(wheel_directory)


def _tag():
    """The wheel's tag for this interpreter, as bdist_wheel makes it: cp311-cp311-linux_x86_64."""
    impl = "cp" if sys.implementation.name == "cpython" else sys.implementation.name[:2]
    version = "%d%d" % sys.version_info[:2]
    soabi = sysconfig.get_config_var("SOABI") or ""
    # SOABI "cpython-311-x86_64-linux-gnu" (or "cpython-311d-..." for a debug build).
    abi = impl + soabi.split("-")[1] if soabi.count("-") >= 2 else "none"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s%s-%s-%s" % (impl, version, abi, plat)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def _write_wheel(wheel_directory):
    scratch = tempfile.mkdtemp(prefix="frd-wheel-")
    try:
        build_lib = os.path.join(scratch, "lib")
        subprocess.run([sys.executable, "setup.py", "--quiet", "egg_info", "--egg-base", scratch,
                        "build", "--build-base", os.path.join(scratch, "build"),
                        "--build-lib", build_lib], check=True)
        egg_info = next(os.path.join(scratch, d) for d in os.listdir(scratch)
                        if d.endswith(".egg-info"))
        with open(os.path.join(egg_info, "PKG-INFO"), "rb") as f:
            metadata = f.read()
        fields = dict(line.split(": ", 1) for line in metadata.decode().splitlines()[:3]
                      if ": " in line)
        name, version = fields["Name"].replace("-", "_"), fields["Version"]
        dist_info = "%s-%s.dist-info" % (name, version)
        tag = _tag()
        files = []  # (path in the wheel, contents)
        for dirpath, dirnames, filenames in os.walk(build_lib):
            dirnames.sort()
            for fname in sorted(filenames):
                full = os.path.join(dirpath, fname)
                with open(full, "rb") as f:
                    files.append((os.path.relpath(full, build_lib).replace(os.sep, "/"),
                                  f.read()))
        files.append((dist_info + "/METADATA", metadata))
        files.append((dist_info + "/WHEEL", (
            "Wheel-Version: 1.0\nGenerator: frd_backend\nRoot-Is-Purelib: false\n"
            "Tag: %s\n" % tag).encode()))
        with open(os.path.join(egg_info, "top_level.txt"), "rb") as f:
            files.append((dist_info + "/top_level.txt", f.read()))
        if os.path.exists("LICENSE"):
            with open("LICENSE", "rb") as f:
                files.append((dist_info + "/LICENSE", f.read()))
        record = dist_info + "/RECORD"
        lines = [_record_line(path, data) for path, data in files] + [record + ",,"]
        files.append((record, ("\n".join(lines) + "\n").encode()))
        wheel_name = "%s-%s-%s.whl" % (name, version, tag)
        os.makedirs(wheel_directory, exist_ok=True)
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                             zipfile.ZIP_DEFLATED) as whl:
            for path, data in files:
                info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if path.endswith(".so") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                whl.writestr(info, data)
        return wheel_name
    finally:
        shutil.rmtree(scratch)
