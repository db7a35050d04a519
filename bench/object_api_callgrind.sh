#!/bin/sh
# Instructions per object of the Python object API, one object at a time as the README teaches it
# (bench/object_api_phases.py: create, point read of five attributes, update loop, iteration),
# counted by valgrind --tool=callgrind, which repeats where timings on a shared machine do not.
#   bench/object_api_callgrind.sh [N]        (default N = 5000; about a minute per phase)
# Each phase runs twice, whole and setup only; the difference over N is the phase's cost per object.
# REALMDB_LIBRARY picks the library (default: the binding's search); REALMDB_BINDING the binding's
# folder, e.g. an older checkout's bindings/python, to compare two bindings on one library.
set -eu
n="${1:-5000}"
here="$(cd "$(dirname "$0")" && pwd)"
python="$(python3 -c 'import sys; print(sys.executable)')"  # not a shim: valgrind follows this one
command -v valgrind >/dev/null 2>&1 || { echo "object_api_callgrind.sh: needs valgrind" >&2; exit 1; }
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
count() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$python" "$here/object_api_phases.py" "$@" >/dev/null 2>&1
    callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
echo "| phase (N = $n) | instructions/object |"
echo "|---|---:|"
for phase in a b h it; do
    whole="$(count "$phase" "$n")"
    setup="$(count "$phase" "$n" --setup-only)"
    echo "| $phase | $(( (whole - setup) / n )) |"
done
