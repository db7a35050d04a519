#!/usr/bin/env bash
# scripts/test_wheel.sh [LIBRARY]: the Python wheel as a user gets it.
#
# Builds the wheel (python3 -m pip wheel ./bindings/python), carrying LIBRARY (a libdb.so built
# with the Swift runtime inside, such as CMake's build/cmake/libdb.so) or, without one, SwiftPM's
# release build made by the wheel's own build (see bindings/python/setup.py). Installs it into a
# fresh virtual environment and, from a directory outside the repository, with no Swift toolchain
# on PATH, no LD_LIBRARY_PATH and no REALMDB_LIBRARY, runs the Python demo, the realmdb command and
# the binding's test suite against the installed package and the library it carries
# (REALMDB_TEST_INSTALLED=1).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"
library="${1:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "building the wheel${library:+ around $library}"
REALMDB_WHEEL_LIBRARY="$library" "$PYTHON" -m pip wheel -q ./bindings/python -w "$work/dist"
wheel="$(ls "$work"/dist/realmdb-*.whl)"
echo "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"

# --system-site-packages: the test suite's pytest and hypothesis, already installed for this Python.
"$PYTHON" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-deps --no-index "$wheel"

# The environment of a machine without the toolchain: PATH without Swift's directories.
clean_path="$(tr ':' '\n' <<<"$PATH" | grep -v -i swift | paste -sd: -)"
mkdir -p "$work/elsewhere"
cp bindings/python/examples/demo.py "$work/elsewhere/demo.py"
run() {
    (cd "$work/elsewhere" && env -u REALMDB_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH PATH="$clean_path" \
        REALMDB_TEST_INSTALLED=1 "$work/venv/bin/python" "$@")
}
run - <<'PY'
import os, subprocess, sys, realmdb
from realmdb import _ffi
library = realmdb.LIBRARY_PATH
assert library == str(_ffi.BUNDLED) and library.startswith(sys.prefix), (library, sys.prefix)
assert "libswiftCore" not in subprocess.run(["readelf", "-d", library], capture_output=True, text=True).stdout
print(f"installed realmdb {realmdb.__version__}: {realmdb.__file__}, library {library}")
PY
run demo.py "$work/elsewhere/demo-data/people.realm"
# The command-line tool the wheel installs, on the file the demo wrote.
(cd "$work/elsewhere" && env -u REALMDB_LIBRARY -u LD_LIBRARY_PATH PATH="$work/venv/bin:$clean_path" \
    sh -c 'realmdb --version && realmdb count demo-data/people.realm Person "city == \$0" London &&
           realmdb check demo-data/people.realm')
run -m pytest -q -p no:cacheprovider "$REPO_ROOT/bindings/python/tests"
