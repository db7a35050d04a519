#!/usr/bin/env bash
# scripts/demo.sh: the one demo command.
#
#   bash scripts/demo.sh
#
# Installs what is missing (see scripts/lib.sh), builds libdb.so with
# SwiftPM, then runs the C demo (examples/c/demo.c), the Python demo
# (bindings/python/examples/demo.py) and the Swift demo (examples/swift/main.swift);
# each ends with a live query following another process's (Swift: thread's) commits. The C
# and Python demos write into demo-data/ and upsert, the Swift demo into a temporary folder it
# removes, so running this again gives the same output.
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

banner "dependencies"
ensure_dependencies

banner "build libdb.so (swift build)"
swift_build
LIB="$(swiftpm_library)"
echo "built $LIB"

banner "C demo (examples/c/demo.c)"
mkdir -p build/demo demo-data
# Linked by path, with an rpath to its folder: the demo finds this libdb.so
# (never Berkeley DB's libdb) without LD_LIBRARY_PATH.
cc -std=c11 -pthread -Wall -Wextra -I include examples/c/demo.c "$LIB" \
    -Wl,-rpath,"$(dirname "$LIB")" -o build/demo/demo_c
./build/demo/demo_c demo-data/people-c.realm

banner "Python demo (bindings/python/examples/demo.py)"
PY_DEMO=bindings/python/examples/demo.py
[ -f "$PY_DEMO" ] || die "$PY_DEMO is missing"
REALMDB_LIBRARY="$LIB" PYTHONPATH="$REPO_ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" "$PY_DEMO"

banner "Swift demo (examples/swift/main.swift, swift run realmdb-swift-example)"
swift run realmdb-swift-example

banner "done"
echo "data files are in demo-data/ (run again: the demos upsert, nothing is duplicated)"
