#!/bin/sh
# The typed Swift API on the C benchmark's workload: bench/swift/main.swift, built in release,
# runs the phases a-j through RealmDB (one object at a time, as a Swift program writes it) and
# through CoreEngine directly, in one process, and prints both side by side.
#   bench/run_swift_bench.sh [N]     (default N = 100000)
# Quote it beside bench/run_c_bench.sh's table of the same N (the C API's cost of each phase).
set -eu
n="${1:-100000}"
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo_root"
swift build -c release --scratch-path .build-release --product realmdb-swift-bench >&2
mkdir -p build/bench
workload="build/bench/workload-$n.txt"
[ -f "$workload" ] || python3 bench/c/export_workload.py --n "$n" --out "$workload"
exec .build-release/release/realmdb-swift-bench "$workload" "${TMPDIR:-/tmp}"
