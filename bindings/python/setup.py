"""The realmdb wheel carries libdb.so, built with the Swift runtime inside, so that it runs where no
Swift toolchain is installed (it needs LMDB's liblmdb.so.0, Debian's liblmdb0):

    python3 -m pip wheel ./bindings/python -w dist      (from the repository root)
    python3 -m pip install ./bindings/python

build SwiftPM's release library (swift build -c release --scratch-path .build-release -Xswiftc
-static-stdlib) and put it in the package as realmdb/_lib/libdb.so. With REALMDB_WHEEL_LIBRARY
set to an existing libdb.so built that way (e.g. CMake's, whose runtime is static by default),
that file is carried instead and nothing is compiled. The metadata is in pyproject.toml.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LIBRARY_ENV = "REALMDB_WHEEL_LIBRARY"


def _library() -> Path:
    """The libdb.so to carry: $REALMDB_WHEEL_LIBRARY, or SwiftPM's release build, made now."""
    given = os.environ.get(LIBRARY_ENV)
    if given:
        path = Path(given)
        if not path.is_file():
            raise SystemExit(f"realmdb wheel: {LIBRARY_ENV}={given} is not a file")
    else:
        if not (REPO / "Package.swift").is_file():
            raise SystemExit("realmdb wheel: build it from the realmdb repository (bindings/python inside it), "
                             f"or set {LIBRARY_ENV} to a libdb.so built with the Swift runtime inside")
        scratch = REPO / ".build-release"
        subprocess.run(["swift", "build", "-c", "release", "--scratch-path", str(scratch),
                        "-Xswiftc", "-static-stdlib"], cwd=REPO, check=True)
        path = scratch / "release" / "libdb.so"
    needed = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
    if "libswiftCore" in needed:
        raise SystemExit(f"realmdb wheel: {path} needs the Swift runtime from a toolchain; build it with "
                         "-Xswiftc -static-stdlib (SwiftPM) or REALMDB_STATIC_SWIFT_STDLIB=ON (CMake)")
    return path


class BuildWithLibrary(build_py):
    """Adds libdb.so to the package as realmdb/_lib/libdb.so (found there first, see _ffi)."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "realmdb" / "_lib"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_library(), target / "libdb.so")
        os.chmod(target / "libdb.so", 0o755)


class WithLibrary(Distribution):
    """A distribution with compiled code (the library): installed as platform code."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (it carries a compiled library), for any Python 3 (ctypes)."""

    def get_tag(self) -> tuple[str, str, str]:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=WithLibrary, cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel})
