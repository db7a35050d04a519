#!/usr/bin/env bash
# tests/fuzz/run_swift_fuzz.sh: coverage-guided fuzzing (libFuzzer) of the query parser and of
# opening realm files, through Swift's -sanitize=fuzzer,address.
#
#   bash tests/fuzz/run_swift_fuzz.sh short            # the parser 60 s; file opening: replay
#   bash tests/fuzz/run_swift_fuzz.sh long SECONDS      # SECONDS per target, both fuzzed
#
# The short form (CI) replays FileOpen's saved inputs instead of fuzzing it: each of its runs
# opens and checks a whole file (a few per second under ASan), and a hang it finds anew would
# fail an unrelated change. A file on which LMDB loops is ended by the guard's CPU limit
# (REALMDB_LMDB_CPU_LIMIT, 2 s here, so that it ends well within libFuzzer's 10 s per input).
#
# Builds Fuzz/QueryParser and Fuzz/FileOpen with the fuzzer in .build-fuzz/ (its own scratch
# path), runs each from its committed corpus (tests/fuzz/corpus/<target>/, new inputs go to a
# temporary folder so the committed corpus stays small), and prints one figure line per target.
# A crash is saved under tests/fuzz/crashes/<target>/; the plain build of the same target
# replays that folder in scripts/test.sh, so a crash found once stays a regression test.
set -uo pipefail
export REALMDB_LMDB_CPU_LIMIT="${REALMDB_LMDB_CPU_LIMIT:-2}"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

form="${1:-short}"
seconds=60
[ "$form" = long ] && seconds="${2:-600}"

if ! swift build --scratch-path .build-fuzz -c debug \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DREALMDB_FUZZ -Xswiftc -use-ld=lld \
        --product FuzzQueryParser > .build-fuzz.log 2>&1 ||
   ! swift build --scratch-path .build-fuzz -c debug \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DREALMDB_FUZZ -Xswiftc -use-ld=lld \
        --product FuzzFileOpen >> .build-fuzz.log 2>&1; then
    tail -30 .build-fuzz.log
    echo "swift fuzz: the fuzz build failed (log: .build-fuzz.log)"
    exit 1
fi

# FileOpen starts from small realm files made here (random bytes never make an LMDB file).
seeds="$(mktemp -d)"
PYTHONPATH="$PWD/bindings/python${PYTHONPATH:+:$PYTHONPATH}" python3 - "$seeds" <<'PY' || { echo "swift fuzz: cannot make seed files"; exit 1; }
import os, sys, realmdb
schema = [{"name": "P", "primary_key": "id", "properties": {
    "id": "int", "name": {"type": "string", "indexed": True}, "age": "int?", "tags": "string[]",
    "best": "P?", "meta": "string{}", "score": "double"}}]
for n, count in enumerate((0, 3, 40)):
    with realmdb.open(os.path.join(sys.argv[1], f"seed{n}.realm"), schema) as realm, realm.write():
        people = [realm.create("P", {"id": i, "name": f"n{i}", "age": i, "tags": ["a"] * (i % 3), "score": i / 2,
                                     "meta": {"k": "v"} if i % 2 else {}}) for i in range(count)]
        for i, person in enumerate(people[1:]):
            person.best = people[i]
for name in os.listdir(sys.argv[1]):
    if name.endswith("-lock"):
        os.unlink(os.path.join(sys.argv[1], name))
PY

status=0
targets="QueryParser FileOpen"
if [ "$form" = short ]; then
    targets="QueryParser"
    # FileOpen: the plain build replays the committed inputs and the seeds.
    if swift build --product FuzzFileOpen > /dev/null 2>&1 &&
       .build/debug/FuzzFileOpen tests/fuzz/corpus/FileOpen tests/fuzz/crashes/FileOpen "$seeds" > "$seeds.replay" 2>&1; then
        echo "swift fuzz FileOpen: $(tail -n1 "$seeds.replay") (replayed, not fuzzed, in the short form), crashes 0"
    else
        tail -20 "$seeds.replay"
        echo "swift fuzz FileOpen: replay failed"
        status=1
    fi
    rm -f "$seeds.replay"
fi
for target in $targets; do
    exe=".build-fuzz/debug/Fuzz$target"
    corpus="tests/fuzz/corpus/$target"
    crashes="tests/fuzz/crashes/$target"
    work="$(mktemp -d)"
    mkdir -p "$corpus" "$crashes"
    # libFuzzer: -max_total_time, a timeout per input, memory limit; crashes go to $crashes.
    ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:allocator_may_return_null=1 \
        "$exe" "$work" "$corpus" "$crashes" $([ "$target" = FileOpen ] && echo "$seeds") -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$crashes/" -print_final_stats=1 > "$work.log" 2>&1
    rc=$?
    runs="$(grep -m1 -oE 'stat::number_of_executed_units: *[0-9]+' "$work.log" | grep -oE '[0-9]+$')"
    found="$(find "$crashes" -type f -newer "$work" | wc -l)"
    echo "swift fuzz $target: runs ${runs:-0}, seconds $seconds, corpus $(ls "$corpus" | wc -l) + $(ls "$work" | wc -l) new, crashes $found"
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
        grep -E "ERROR|==ERROR|Fatal|SUMMARY" "$work.log" | head -10
    fi
    rm -rf "$work" "$work.log"
done
rm -rf "$seeds"
exit "$status"
