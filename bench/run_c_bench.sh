#!/bin/sh
# The C peer benchmark: the workload of ../shared/bench/peers.py through db.h and through
# SQLite's C API, side by side in one run, on a release build of libdb.so.
#   bench/run_c_bench.sh [N]          (default N = 1000000)
# Builds .build-release (SwiftPM, release, static stdlib) and build/bench (CMake, Release), writes
# the workload with bench/c/export_workload.py, then prints a Markdown table.
#
# Environment:
#   REALMDB_LIBRARY=/path/to/libdb.so   use that prebuilt library: no Swift is compiled (neither
#                                       swift build nor CMake's Swift compiler check); peers_bench
#                                       is compiled with ${CC:-cc} straight into build/bench-c.
set -eu
n="${1:-1000000}"
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
exec "$build_dir/peers_bench" "$workload" "${TMPDIR:-/tmp}"
