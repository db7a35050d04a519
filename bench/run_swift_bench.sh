#!/bin/sh
# The typed Swift API on the C benchmark's workload: bench/swift/main.swift, built in release,
# runs the phases a-j through RealmDB (one object at a time, as a Swift program writes it) and
# through CoreEngine directly, in one process, and prints both side by side.
#   bench/run_swift_bench.sh [N]     (default N = 100000)
# Quote it beside bench/run_c_bench.sh's table of the same N (the C API's cost of each phase).
#
#   bench/run_swift_bench.sh --callgrind PHASE [N] [REPS]   (default N = 20000, REPS = 20)
# counts, under valgrind's callgrind, the instructions of one typed phase alone (a b c d e f g h
# i, or d-batch e-batch g-batch; the insert it needs runs first, uncounted) and prints them per
# operation: per object for a, b, h and i, per query for the others. Instruction counts repeat
# from run to run where this machine's timings do not; the profile stays in build/bench.
set -eu
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo_root"
if [ "${1:-}" = "--callgrind" ]; then
    phase="${2:?usage: bench/run_swift_bench.sh --callgrind PHASE [N] [REPS]}"
    n="${3:-20000}"
    reps="${4:-20}"
else
    phase=""
    n="${1:-100000}"
fi
swift build -c release --scratch-path .build-release --product realmdb-swift-bench >&2
mkdir -p build/bench
workload="build/bench/workload-$n.txt"
[ -f "$workload" ] || python3 bench/c/export_workload.py --n "$n" --out "$workload"
if [ -z "$phase" ]; then
    exec .build-release/release/realmdb-swift-bench "$workload" "${TMPDIR:-/tmp}"
fi
command -v valgrind >/dev/null || { echo "run_swift_bench.sh: --callgrind needs valgrind" >&2; exit 1; }
profile="build/bench/callgrind-swift-$phase-$n"
# valgrind's own messages go to a log; the benchmark's errors (a wrong answer, an unknown phase) show.
operations=$(valgrind --tool=callgrind --callgrind-out-file="$profile" --log-file="$profile.log" \
        --collect-atstart=no --toggle-collect='*profiledPhase*' \
        .build-release/release/realmdb-swift-bench --profile "$phase" "$reps" "$workload" "${TMPDIR:-/tmp}" \
    | awk '$1 == "operations" { print $2 }')
[ -n "$operations" ] || { echo "run_swift_bench.sh: the profiled run failed (valgrind's log: $profile.log)" >&2; exit 1; }
total=$(awk '$1 == "totals:" { print $2 }' "$profile")
echo "typed phase $phase, N = $n: $total instructions for $operations operations, $((total / operations)) per operation"
echo "profile: $profile (callgrind_annotate --inclusive=yes $profile)"
