#!/bin/sh
# Large writes: N objects inserted in one write transaction, then all deleted in one, with the
# time, file size and memory (RssAnon: the process's own memory; VmHWM: peak resident set,
# which also counts file pages mapped by reads) after each step. See bench/c/large_write.c.
#   bench/run_large_write.sh [--delete-half] [--commit-every K] [N] [PAYLOAD_BYTES]
#       default N = 10000000, no payload; 10000000 1000 makes a 10 GB realm; --delete-half
#       deletes half of the objects (scattered over every index) instead of all of them;
#       --commit-every K inserts in transactions of K objects instead of one
# Uses a release build of libdb.so (.build-release, or $REALMDB_LIBRARY); the realm is written
# under ${TMPDIR:-/tmp} and removed at the end.
set -eu
options=
while :; do
    case "${1:-}" in
        --delete-half) options="$options $1"; shift ;;
        --commit-every) options="$options $1 ${2:?--commit-every takes a number}"; shift 2 ;;
        *) break ;;
    esac
done
n="${1:-10000000}"
payload="${2:-0}"
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo_root"
if [ -n "${REALMDB_LIBRARY:-}" ]; then
    library="$REALMDB_LIBRARY"
else
    swift build -c release --scratch-path .build-release -Xswiftc -static-stdlib >&2
    library="$repo_root/.build-release/release/libdb.so"
fi
[ -f "$library" ] || { echo "run_large_write.sh: $library does not exist" >&2; exit 1; }
lib_dir="$(cd "$(dirname "$library")" && pwd)"
mkdir -p build/bench-c
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -Iinclude bench/c/large_write.c -o build/bench-c/large_write \
    -L"$lib_dir" -l:"$(basename "$library")" -Wl,-rpath,"$lib_dir"
dir="$(mktemp -d "${TMPDIR:-/tmp}/large-write-XXXXXX")"
trap 'rm -rf "$dir"' EXIT
# shellcheck disable=SC2086  # options are words
build/bench-c/large_write $options "$n" "$dir/large.realm" "$payload"
