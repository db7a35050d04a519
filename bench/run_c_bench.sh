#!/bin/sh
# The C peer benchmark: the workload of ../shared/bench/peers.py through db.h and through
# SQLite's C API, side by side in one run, on a release build of libdb.so.
#   bench/run_c_bench.sh [N]               timed run (default N = 1000000): a Markdown table of
#                                          throughputs and latencies, file sizes and peak RSS
#   bench/run_c_bench.sh --callgrind [N]   the same run under valgrind --tool=callgrind (default
#                                          N = 20000, about a minute): a Markdown table of
#                                          instructions per object for the phases a, b, h and i,
#                                          and per query for c to g
# Builds .build-release (SwiftPM, release, static stdlib) and build/bench (CMake, Release), writes
# the workload with bench/c/export_workload.py, then runs build/bench/peers_bench.
# Every answer of either engine is checked against peers.py's oracle in both modes; a wrong
# answer exits 1.
#
# Environment:
#   REALMDB_LIBRARY=/path/to/libdb.so   use that prebuilt library: no Swift is compiled (neither
#                                       swift build nor CMake's Swift compiler check); peers_bench
#                                       is compiled with ${CC:-cc} straight into build/bench-c.
#   TMPDIR                              where the databases are written (default /tmp).
# The callgrind mode sets SWIFT_DETERMINISTIC_HASHING=1, so that counts repeat from run to run,
# and keeps the dumps in <build dir>/callgrind-N (callgrind_annotate <dump> shows where the
# instructions go).
set -eu
mode=timed
if [ "${1:-}" = "--callgrind" ]; then
    mode=callgrind
    shift
fi
case "${1:-}" in
    -*) echo "usage: bench/run_c_bench.sh [--callgrind] [N]" >&2; exit 2 ;;
esac
if [ "$mode" = callgrind ]; then n="${1:-20000}"; else n="${1:-1000000}"; fi
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo_root"
if [ -n "${REALMDB_LIBRARY:-}" ]; then
    [ -f "$REALMDB_LIBRARY" ] || { echo "run_c_bench.sh: REALMDB_LIBRARY=$REALMDB_LIBRARY does not exist" >&2; exit 1; }
    lib_dir="$(cd "$(dirname "$REALMDB_LIBRARY")" && pwd)"
    build_dir=build/bench-c
    mkdir -p "$build_dir"
    # The flags of the CMake target: C11, Release (-O3 -DNDEBUG), warnings as errors.
    ${CC:-cc} -std=c11 -O3 -DNDEBUG -Wall -Wextra -Werror -Iinclude bench/c/peers_bench.c \
        -o "$build_dir/peers_bench" -L"$lib_dir" -l:"$(basename "$REALMDB_LIBRARY")" \
        -Wl,-rpath,"$lib_dir" -lsqlite3 -lm
else
    build_dir=build/bench
    swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib >&2
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DREALMDB_LIBRARY="$repo_root/.build-release/release/libdb.so" >/dev/null
    cmake --build "$build_dir" --target peers_bench >&2
fi
workload="$build_dir/workload-$n.txt"
[ -f "$workload" ] || python3 bench/c/export_workload.py --n "$n" --out "$workload"
if [ "$mode" = timed ]; then
    exec "$build_dir/peers_bench" "$workload" "${TMPDIR:-/tmp}"
fi
command -v valgrind >/dev/null 2>&1 || { echo "run_c_bench.sh: --callgrind needs valgrind" >&2; exit 1; }
dumps="$build_dir/callgrind-$n"
rm -rf "$dumps"
mkdir -p "$dumps"
# The timed table of this run means nothing under valgrind; the answers are still checked.
if ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$dumps/callgrind.%p" \
        "$build_dir/peers_bench" "$workload" "${TMPDIR:-/tmp}" >"$dumps/timed-table.md" 2>"$dumps/valgrind.log"; then
    tail -n 20 "$dumps/valgrind.log" >&2
    echo "run_c_bench.sh: the run under callgrind failed (log: $dumps/valgrind.log)" >&2
    exit 1
fi
python3 bench/c/callgrind_table.py "$dumps" "$workload"
echo "dumps in $dumps" >&2
