#!/usr/bin/env bash
# tests/c/run_asan.sh: the C harness under AddressSanitizer (and LeakSanitizer).
#
#   bash tests/c/run_asan.sh short   # the API sweep and every tests/c/test_*.c (scripts/faults.sh short)
#   bash tests/c/run_asan.sh long    # the same, then hostile files (3 seeds x 200 copies) under ASan
#
# Builds libdb.so with ASan in .build-asan/ (its own scratch path):
#   swift build -c debug --scratch-path .build-asan --product db \
#       -Xswiftc -sanitize=address -Xcc -fsanitize=address      (Swift and the C targets)
# A shared library gets no ASan runtime of its own: the executables bring it. Each
# tests/c/test_*.c is compiled with the Swift toolchain's clang -fsanitize=address (which links
# the runtime statically and exports it to libdb.so) into build/asan/, then run; the sweep's six
# categories and the other binaries run in parallel, one per CPU. Python loads the runtime with
# LD_PRELOAD (the long form).
#
# ASAN_OPTIONS, and why:
#   abort_on_error=1     a report ends in abort(): the sweep's parent then reports the case as a
#                        CRASH (SIGABRT) and hostile files counts a crash, rather than "exit 1"
#   handle_segv/sigbus/sigfpe=1 (the defaults, spelled out)
#                        ASan installs its handlers first and lets the guard (CLMDBGuard) install
#                        its own over them: a fault in a guarded LMDB call on a damaged file is
#                        caught by the guard; any other fault is passed on to ASan's handler
#                        (the guard chains to the handler it replaced), which reports it. =2 would
#                        forbid the guard's handler (damaged files would crash); =0 would lose
#                        ASan's report of our own SIGSEGVs. (allow_user_segv_handler is deprecated.)
#   detect_leaks=1       with tests/c/lsan.supp: memory LMDB allocated in the frames a guarded
#                        fault jumps out of. Leaks are checked when each binary exits, and in each
#                        sweep case after its call (test_api_sweep.c says how). Off for Python
#                        (the long form), whose interpreter does not free everything at exit.
#   SWIFT_BACKTRACE=enable=no   not ASan's but the Swift runtime's crash handler: under ASan it
#                        launched swift-backtrace, which hung ("nested bug") instead of reporting.
#
# Prints one figure line:
#   c api under asan: sweep N cases (F functions), harness N binaries (T tests), asan errors N,
#   leaks N, failed N[, hostile files ...], build Ns, run Ns
set -uo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
set +e
cd "$REPO_ROOT" || exit 1

fault_suite_form "bash tests/c/run_asan.sh" "$@"

SCRATCH=.build-asan
LIB="$REPO_ROOT/$SCRATCH/debug/libdb.so"
OUT="$REPO_ROOT/build/asan"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

command -v swift >/dev/null 2>&1 || { echo "c api under asan: the Swift toolchain (swift) is not on PATH"; exit 1; }
ensure_apt_packages liblmdb-dev > /dev/null || { echo "c api under asan: cannot install liblmdb-dev"; exit 1; }
SWIFT_BIN="$(dirname "$(readlink -f "$(command -v swift)")")"
CLANG="$SWIFT_BIN/clang"
[ -x "$CLANG" ] || CLANG="$(command -v clang)"
[ -x "$CLANG" ] || { echo "c api under asan: no clang next to swift ($SWIFT_BIN) or on PATH"; exit 1; }
RUNTIME="$("$CLANG" -print-file-name="libclang_rt.asan-$(uname -m).so")"
LINKER=()
[ -x "$SWIFT_BIN/ld.lld" ] && LINKER=(-fuse-ld=lld)  # gold warns about every ASan symbol

rm -rf "$OUT"
mkdir -p "$OUT/logs"

# ---- build -------------------------------------------------------------------------------------
build_start=$(date +%s)
if ! swift build -c debug --scratch-path "$SCRATCH" --product db \
        -Xswiftc -sanitize=address -Xcc -fsanitize=address > "$OUT/logs/build.log" 2>&1; then
    tail -30 "$OUT/logs/build.log"
    echo "c api under asan: the ASan build of libdb.so failed (log: build/asan/logs/build.log)"
    exit 1
fi
tests=()
for src in tests/c/test_*.c; do
    name="$(basename "$src" .c)"
    # The flags of CMakeLists.txt (REALMDB_C_WARNINGS, _XOPEN_SOURCE), plus ASan.
    if ! "$CLANG" "${LINKER[@]}" -std=c11 -D_XOPEN_SOURCE=700 -Wall -Wextra -Werror -g -O1 \
            -fno-omit-frame-pointer -fsanitize=address -Iinclude -Itests/c "$src" -o "$OUT/$name" \
            -L"$SCRATCH/debug" -ldb -Wl,-rpath,"$REPO_ROOT/$SCRATCH/debug" -lpthread \
            >> "$OUT/logs/build.log" 2>&1; then
        tail -30 "$OUT/logs/build.log"
        echo "c api under asan: $src did not compile with $CLANG -fsanitize=address"
        exit 1
    fi
    tests+=("$name")
done
build_seconds=$(( $(date +%s) - build_start ))

# ---- run ---------------------------------------------------------------------------------------
export ASAN_OPTIONS="abort_on_error=1:handle_segv=1:handle_sigbus=1:handle_sigfpe=1:detect_leaks=1"
export LSAN_OPTIONS="suppressions=$REPO_ROOT/tests/c/lsan.supp:print_suppressions=0"
export SWIFT_BACKTRACE=enable=no
# Every case writes a small realm, and LMDB syncs each commit: on tmpfs that costs nothing (the
# sweep ran in about half the time). Only when TMPDIR is not set.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    TMPDIR="$(mktemp -d /dev/shm/realmdb-asan-XXXXXX)" && export TMPDIR && trap 'rm -rf "$TMPDIR"' EXIT
fi

# One job per sweep category, one per other binary: "logname binary [test]".
jobs=()
for name in "${tests[@]}"; do
    if [ "$name" = test_api_sweep ]; then
        for category in $("$OUT/test_api_sweep" --list); do jobs+=("sweep.$category $name $category"); done
    else
        jobs+=("$name $name")
    fi
done

run_start=$(date +%s)
run_job() {  # LOGNAME BINARY [TEST]: exit status in LOGNAME.rc, seconds in LOGNAME.seconds
    local log="$1" exe="$2" start=$SECONDS
    shift 2
    timeout 1200 "$OUT/$exe" "$@" > "$OUT/logs/$log.log" 2>&1
    echo $? > "$OUT/logs/$log.rc"
    echo $((SECONDS - start)) > "$OUT/logs/$log.seconds"
}
running=0
for job in "${jobs[@]}"; do
    # shellcheck disable=SC2086  # the job's words
    run_job $job &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
for job in "${jobs[@]}"; do
    log="${job%% *}"
    if [ "$(cat "$OUT/logs/$log.rc" 2>/dev/null)" != 0 ]; then
        failed=$((failed + 1))
        echo "FAILED: $log (log: build/asan/logs/$log.log)"
        grep -E "FAILED|CRASH|leaked memory|ERROR: (Address|Leak)Sanitizer|SUMMARY" "$OUT/logs/$log.log" | head -20
    fi
done
count() { cat "$OUT"/logs/*.log 2>/dev/null | grep -c "$1"; }
asan_errors=$(count "ERROR: AddressSanitizer")
leaks=$(count "ERROR: LeakSanitizer")
sweep_cases=$(cat "$OUT"/logs/sweep.*.log 2>/dev/null | grep -oE '^[a-z_]+: [0-9]+ cases' | awk '{n += $2} END {print n + 0}')
functions=$(grep -oE '^valid_calls: [0-9]+ cases' "$OUT/logs/sweep.valid_calls.log" 2>/dev/null | awk '{print $2}')
harness_tests=$(cat "$OUT"/logs/test_*.log 2>/dev/null | grep -oE '^[a-z_]+: [0-9]+ passed, [0-9]+ failed$' |
    awk '{n += $2 + $4} END {print n + 0}')
figures="sweep ${sweep_cases} cases (${functions:-0} functions), harness $(( ${#tests[@]} - 1 )) binaries (${harness_tests} tests)"
figures="$figures, asan errors $asan_errors, leaks $leaks, failed $failed"

# ---- long: hostile files, through Python, under ASan -------------------------------------------
status=0
[ "$failed" -eq 0 ] && [ "$asan_errors" -eq 0 ] && [ "$leaks" -eq 0 ] || status=1
if [ "$form" = long ]; then
    hostile=(0 0)  # copies, crashes + hangs
    for seed in 1 2 3; do
        out="$(LD_PRELOAD="$RUNTIME" ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
            REALMDB_LIBRARY="$LIB" PYTHONPATH="$REPO_ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}" \
            "$PYTHON" tests/faults/hostile_files.py --copies 200 --seed "$seed" --allow-changed \
            --keep build/asan/hostile-files-kept 2>&1)"
        rc=$?
        printf '%s\n' "$out" | sed 's/^hostile files:/  hostile files (ASan, seed '"$seed"'):/'
        line="$(printf '%s\n' "$out" | grep -m1 '^hostile files:')"
        copies=$(printf '%s' "$line" | grep -oE 'copies [0-9]+' | grep -oE '[0-9]+')
        bad=$(printf '%s' "$line" | grep -oE '(crash|hang) [0-9]+' | awk '{n += $2} END {print n + 0}')
        hostile=($(( hostile[0] + ${copies:-0} )) $(( hostile[1] + bad )))
        [ "$rc" -eq 0 ] || status=1
    done
    figures="$figures, hostile files ${hostile[0]} copies (crashes + hangs ${hostile[1]})"
fi
run_seconds=$(( $(date +%s) - run_start ))

echo "c api under asan: $figures, build ${build_seconds}s, run ${run_seconds}s"
exit "$status"
