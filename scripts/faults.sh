#!/usr/bin/env bash
# scripts/faults.sh: the fault suites of issue 13, each printing one line of figures.
#
#   bash scripts/faults.sh short     # a few minutes; scripts/test.sh runs this form (and so CI)
#   bash scripts/faults.sh long      # about an hour: the soak before a release
#
# Suites (each exits non-zero on any crash, hang, lost commit or wrong answer):
#   observer stress     tests/faults/observer_stress.py: processes x (writer thread + asyncio
#                       observer whose callback reads its results): stalls, missed commits
#   hostile files       tests/faults/hostile_files.py: truncated, bit-flipped, page-damaged copies
#                       opened and read: clean errors vs crashes, hangs, silently changed data
#   crash durability    tests/faults/crash_durability.py --creation: SIGKILL during commits and
#                       simulated power loss, while files are created too: lost acknowledged
#                       commits, torn states, unopenable files
#   C API sweep         tests/c/test_api_sweep.c (built by the C harness): every function with
#                       NULLs, hostile numbers, bad enums and strings, closed handles
#   C API under ASan    tests/c/run_asan.sh: the sweep and every tests/c/test_*.c against a libdb.so
#                       built with AddressSanitizer (.build-asan/), leaks checked; the long form
#                       adds hostile files under ASan. About 2-3 minutes in the short form.
#   Python API fuzz     tests/fuzz/run_fuzz.sh: atheris over the Python API
#   Swift fuzz          tests/fuzz/run_swift_fuzz.sh: libFuzzer over the query parser and over
#                       opening damaged files (Fuzz/), crashes kept as regression inputs
#
# Needs the library built (scripts/test.sh builds it; or `swift build`), and the C harness in
# build/c-harness for the sweep (skipped with a note when absent). The ASan suite builds its own.
set -uo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set +e
cd "$REPO_ROOT" || exit 1

fault_suite_form "bash scripts/faults.sh" "$@"

export REALMDB_LIBRARY="${REALMDB_LIBRARY:-$(swiftpm_library)}"
export PYTHONPATH="$REPO_ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
if [ ! -f "$REALMDB_LIBRARY" ]; then
    echo "faults: $REALMDB_LIBRARY is missing; run swift build (or scripts/test.sh) first" >&2
    exit 1
fi

results=()
failed=0

# suite NAME COMMAND...: runs one suite, keeps its figure line (its last unindented "name: ..." line).
suite() {
    local name="$1" start end status out
    shift
    banner "fault suite: $name ($form)"
    start=$(date +%s)
    out="$("$@" 2>&1)"
    status=$?
    end=$(date +%s)
    printf '%s\n' "$out"
    local figure
    figure="$(printf '%s\n' "$out" | grep -E '^[a-zA-Z_ ]+: ' | tail -n1)"
    [ -n "$figure" ] || figure="$name: no figure line"
    if [ "$status" -eq 0 ]; then
        results+=("ok      $((end - start))s  $figure")
    else
        results+=("FAILED  $((end - start))s  $figure")
        failed=1
    fi
}

if [ "$form" = short ]; then
    suite "observer stress" "$PYTHON" tests/faults/observer_stress.py --processes 4 --seconds 20
    suite "hostile files" "$PYTHON" tests/faults/hostile_files.py --copies 60 --seed 7 --timeout 60
    [ -f tests/faults/crash_durability.py ] && suite "crash durability" "$PYTHON" tests/faults/crash_durability.py --creation
    [ -x build/c-harness/test_api_sweep ] && suite "C API sweep" build/c-harness/test_api_sweep
    suite "C API under ASan" bash tests/c/run_asan.sh short
    [ -f tests/fuzz/run_fuzz.sh ] && suite "Python API fuzz" bash tests/fuzz/run_fuzz.sh short
    suite "Swift fuzz" bash tests/fuzz/run_swift_fuzz.sh short
else
    suite "observer stress" "$PYTHON" tests/faults/observer_stress.py --processes 4 --seconds 600
    for seed in 1 2 3 4 5 6 7 8 9 10; do
        suite "hostile files seed $seed" "$PYTHON" tests/faults/hostile_files.py --copies 200 --seed "$seed" --timeout 60 \
            --keep build/hostile-files-kept
    done
    [ -f tests/faults/crash_durability.py ] && suite "crash durability" "$PYTHON" tests/faults/crash_durability.py --creation --seconds 900
    [ -x build/c-harness/test_api_sweep ] && suite "C API sweep" build/c-harness/test_api_sweep
    suite "C API under ASan" bash tests/c/run_asan.sh long
    [ -f tests/fuzz/run_fuzz.sh ] && suite "Python API fuzz" bash tests/fuzz/run_fuzz.sh long 1200
    suite "Swift fuzz" bash tests/fuzz/run_swift_fuzz.sh long 900
fi

banner "fault suites ($form)"
printf '%s\n' "${results[@]}"
exit "$failed"
