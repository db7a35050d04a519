#!/usr/bin/env bash
# Coverage-guided fuzzing of the Python API (tests/fuzz/fuzz_python_api.py) with atheris.
#
#   tests/fuzz/run_fuzz.sh short           about 60 seconds
#   tests/fuzz/run_fuzz.sh long SECONDS    SECONDS seconds
#
# Prints one figure line:
#   python api fuzz: runs N, seconds S, corpus N, crashes N, hangs N
# (runs: inputs executed; corpus: inputs in the fuzzer's corpus at the end, the committed seeds
# plus what it added; crashes: crash/oom artifacts; hangs: inputs over -timeout=10 s).
#
# New corpus entries go to a separate working directory (FUZZ_WORK_DIR, default a new directory
# under /tmp): tests/fuzz/corpus/python_api/ is only read, so the committed corpus stays small.
# Artifacts (crash-*, timeout-*, oom-*) are written to $FUZZ_WORK_DIR/artifacts/; minimize one
# with `python3 tests/fuzz/fuzz_python_api.py -minimize_crash=1 -max_total_time=120
# -exact_artifact_path=OUT ARTIFACT` and keep it under tests/fuzz/crashes/python_api/ (replayed by
# bindings/python/tests/test_fuzz_corpus.py). After a crash or hang, fuzzing resumes (with the
# corpus so far) until the time is up.
#
# Findings already reported (KNOWN in known_findings.py) are steered around
# (REALMDB_FUZZ_KNOWN=ignore) so that a run finds new ones; REALMDB_FUZZ_KNOWN= (empty) fails on
# them again. Inputs are programs (one operation per few bytes): -max_len=2048 with a fast-growing
# length limit. Extra libFuzzer options can be given in FUZZ_ARGS.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HARNESS="$ROOT/tests/fuzz/fuzz_python_api.py"
SEEDS="$ROOT/tests/fuzz/corpus/python_api"

usage() {
    echo "usage: $0 short | long SECONDS" >&2
    exit 2
}

case "${1:-}" in
    short) total=60 ;;
    long)
        total="${2:-}"
        [[ "$total" =~ ^[0-9]+$ ]] && (( total > 0 )) || usage
        ;;
    *) usage ;;
esac

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c "import atheris" >/dev/null 2>&1; then
    echo "installing atheris (requirements-fuzz.txt)" >&2
    "$PYTHON" -m pip install --quiet -r "$ROOT/requirements-fuzz.txt" >&2
fi

if [[ -z "${REALMDB_LIBRARY:-}" && -f "$ROOT/.build/debug/libdb.so" ]]; then
    export REALMDB_LIBRARY="$ROOT/.build/debug/libdb.so"
fi
export REALMDB_FUZZ_KNOWN="${REALMDB_FUZZ_KNOWN-ignore}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"  # let libFuzzer catch Swift traps (see the harness)
export PYTHONPATH="$ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}"

WORK="${FUZZ_WORK_DIR:-$(mktemp -d /tmp/realmdb-fuzz-work.XXXXXX)}"
mkdir -p "$WORK/corpus" "$WORK/artifacts" "$WORK/tmp" "$WORK/logs"
export REALMDB_FUZZ_TMP="$WORK/tmp"  # the harness's realm files
chmod +x "$HARNESS"

start=$(date +%s)
deadline=$(( start + total ))
runs=0
corpus=0
session=0
# shellcheck disable=SC2206
extra=(${FUZZ_ARGS:-})

while :; do
    now=$(date +%s)
    left=$(( deadline - now ))
    (( left >= 2 )) || break
    session=$(( session + 1 ))
    log="$WORK/logs/session-$session.log"
    status=0
    # The work corpus first: libFuzzer writes new entries to the first directory only.
    "$PYTHON" "$HARNESS" \
        -max_total_time="$left" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -max_len=2048 -len_control=5 \
        -artifact_prefix="$WORK/artifacts/" "${extra[@]}" \
        "$WORK/corpus" "$SEEDS" >"$log" 2>&1 || status=$?
    # Executed inputs: the final stats, else the last status line (#N) of the session.
    n=$(grep -a -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    if [[ -z "$n" ]]; then
        n=$(grep -a -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
    fi
    runs=$(( runs + ${n:-0} ))
    c=$(grep -a -o 'corp: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
    [[ -n "$c" ]] && corpus=$c
    if (( status == 0 )); then
        break
    fi
    if ! grep -a -q -E 'Test unit written to|ERROR: libFuzzer' "$log"; then
        echo "the fuzzer failed to run (exit $status); see $log:" >&2
        tail -20 "$log" >&2
        break
    fi
    echo "session $session stopped (exit $status): $(grep -a -m1 -o 'Test unit written to .*' "$log" || echo '?')" >&2
done

end=$(date +%s)
crashes=$(find "$WORK/artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
hangs=$(find "$WORK/artifacts" -maxdepth 1 -type f -name 'timeout-*' | wc -l)
files=$(find "$WORK/corpus" "$SEEDS" -maxdepth 1 -type f | wc -l)
(( corpus > 0 )) || corpus=$files

echo "work directory: $WORK (corpus/, artifacts/, logs/)" >&2
echo "python api fuzz: runs $runs, seconds $(( end - start )), corpus $corpus, crashes $crashes, hangs $hangs"
# A crash is a finding to fix (or, minimized, to keep under crashes/): it fails the run.
if (( crashes > 0 )); then
    echo "the fuzzer found $crashes crash(es): see $WORK/artifacts/ and the tracebacks in $WORK/logs/" >&2
    exit 1
fi
