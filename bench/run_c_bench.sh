#!/bin/sh
# The C peer benchmark: the workload of ../shared/bench/peers.py through db.h and through
# SQLite's C API, side by side in one run, on a release build of libdb.so.
#   bench/run_c_bench.sh [N]          (default N = 1000000)
# Builds .build-release (SwiftPM, release, static stdlib) and build/bench (CMake, -O2), writes
# the workload with bench/c/export_workload.py, then prints a Markdown table.
set -eu
n="${1:-1000000}"
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo_root"
swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib >&2
cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DREALMDB_LIBRARY="$repo_root/.build-release/release/libdb.so" >/dev/null
cmake --build build/bench --target peers_bench >&2
workload="build/bench/workload-$n.txt"
[ -f "$workload" ] || python3 bench/c/export_workload.py --n "$n" --out "$workload"
exec build/bench/peers_bench "$workload" "${TMPDIR:-/tmp}"
