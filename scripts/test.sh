#!/usr/bin/env bash
# scripts/test.sh: the one test command (CI runs it through .ci/run).
#
#   bash scripts/test.sh
#
# Stages, in order (a failed stage fails the run; the build stages stop it):
#   1. dependencies     apt: liblmdb-dev cmake ninja-build; pip: requirements-dev.txt (only if missing)
#   2. swift build      SwiftPM builds .build/debug/libdb.so
#   3. header           include/db.h == tools/generate_header.py of the CAPI-Swift.h just built
#   4. exports          libdb.so exports exactly db.h's functions (tools/check_exports.py)
#   5. ffi              the Python binding's ctypes declarations match db.h (tools/check_ffi.py)
#   6. swift test       the engine's XCTest/Swift Testing suites
#   7. C harness        CMake + ctest: tests/c against the SwiftPM library
#   8. pytest           bindings/python/tests and tools/tests
#   9. mypy             mypy --strict on the Python binding (realmdb/) and its examples
#  10. reference docs   tools/build_docs.py writes build/docs (C API, Python API, guides);
#                      tools/check_links.py fails on any link that leads nowhere
#  11. CMake build      CMake compiles the same sources into its own libdb.so; ctest again against it;
#                      installs it into a fresh prefix and builds programs against the installed copy
#  12. Python wheel     scripts/test_wheel.sh: the wheel, carrying CMake's libdb.so, installed into a
#                      fresh venv; the demo and the binding's tests run from outside the repository
#                      with no Swift toolchain on PATH and no REALMDB_LIBRARY
#  13. memcheck         the C harness again under valgrind: no memory errors, no definite leaks
#  14. fault suites     scripts/faults.sh short: observer stress, hostile files, crash durability,
#                       the C API sweep, Python API fuzzing; each prints one line of figures
#
# Environment: REALMDB_SKIP_CMAKE_BUILD=1 skips stages 11 and 12 (the slowest) for quick local runs.
set -uo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
set +e  # stages report their own failures
cd "$REPO_ROOT" || exit 1

JOBS="$(nproc 2>/dev/null || echo 2)"
failures=()
timings=()

# stage NAME COMMAND...: runs one stage, records its time and result.
stage() {
    local name="$1" start end status
    shift
    banner "$name"
    start=$(date +%s.%N)
    "$@"
    status=$?
    end=$(date +%s.%N)
    local secs
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    if [ "$status" -eq 0 ]; then
        timings+=("$(printf '%-40s %8ss  ok' "$name" "$secs")")
        echo "==> $name: ok (${secs}s)"
    else
        timings+=("$(printf '%-40s %8ss  FAILED (exit %d)' "$name" "$secs" "$status")")
        failures+=("$name")
        echo "==> $name: FAILED (exit $status, ${secs}s)" >&2
    fi
    return "$status"
}

summary() {
    banner "summary"
    printf '%s\n' "${timings[@]}"
    if [ "${#failures[@]}" -gt 0 ]; then
        printf '\nFAILED stages: %s\n' "${failures[*]}"
        exit 1
    fi
    printf '\nall stages succeeded\n'
    exit 0
}

header_check() {
    "$PYTHON" tools/generate_header.py --check "$(swiftpm_swift_header)"
}

exports_check() {
    "$PYTHON" tools/check_exports.py "$(swiftpm_library)" --header include/db.h
}

ffi_check() {
    "$PYTHON" tools/check_ffi.py --header include/db.h
}

# mypy --strict over the binding and its examples (config: bindings/python/pyproject.toml).
run_mypy() {
    (cd bindings/python && "$PYTHON" -m mypy --strict realmdb examples)
}

swift_test() {
    swift test
}

# ctest against the library SwiftPM built: no Swift compilation in CMake.
c_harness() {
    local dir=build/c-harness
    cmake -S . -B "$dir" -G Ninja -DREALMDB_LIBRARY="$(swiftpm_library)" &&
        cmake --build "$dir" -j "$JOBS" &&
        ctest --test-dir "$dir" --output-on-failure -j "$JOBS"
}

# The full CMake build of libdb.so from Sources/, then the same ctest suite
# (which includes the exports check and header.generated against CMake's
# own CAPI-Swift.h): SwiftPM and CMake build the same library.
# Then the C package: installed into a fresh prefix, a program built against the installed copy
# with pkg-config and with find_package must run from anywhere (tests/package/check_installed.sh).
cmake_build() {
    local dir=build/cmake
    cmake -S . -B "$dir" -G Ninja &&
        nice -n 10 cmake --build "$dir" -j "$JOBS" &&
        ctest --test-dir "$dir" --output-on-failure -j "$JOBS" &&
        rm -rf "$dir/installed" &&
        cmake --install "$dir" --prefix "$dir/installed" >/dev/null &&
        bash tests/package/check_installed.sh "$dir/installed"
}

# Every C harness executable under valgrind: any invalid read/write or definite leak fails.
memcheck() {
    local dir=build/c-harness status=0 count=0 test
    for test in "$dir"/test_*; do
        [ -f "$test" ] && [ -x "$test" ] || continue
        count=$((count + 1))
        if valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9 \
            --suppressions=tests/c/valgrind.supp \
            "$test" > "$dir/$(basename "$test").memcheck.log" 2>&1; then
            echo "memcheck ok: $(basename "$test")"
        else
            echo "memcheck FAILED: $(basename "$test") (log: $dir/$(basename "$test").memcheck.log)" >&2
            tail -40 "$dir/$(basename "$test").memcheck.log" >&2
            status=1
        fi
    done
    if [ "$count" -eq 0 ]; then
        echo "no C harness executables found in $dir" >&2
        return 1
    fi
    return "$status"
}

# The reference site from the sources (C API from db.h, Python API from docstrings, the guides),
# then every link of it: a guide or doc comment naming an API that does not exist fails here.
reference_docs() {
    rm -rf build/docs &&
        REALMDB_LIBRARY="$(swiftpm_library)" "$PYTHON" tools/build_docs.py --out build/docs &&
        "$PYTHON" tools/check_links.py build/docs
}

# pytest: exit code 5 means "no tests collected", which must not pass.
run_pytest() {
    local paths=()
    [ -d bindings/python/tests ] && paths+=(bindings/python/tests)
    [ -d tools/tests ] && paths+=(tools/tests)
    if [ "${#paths[@]}" -eq 0 ]; then
        echo "no Python test folders found (bindings/python/tests, tools/tests)" >&2
        return 1
    fi
    REALMDB_LIBRARY="$(swiftpm_library)" PYTHONPATH="$REPO_ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$PYTHON" -m pytest -q "${paths[@]}"
    local status=$?
    if [ "$status" -eq 5 ]; then
        echo "pytest collected no tests: treating as a failure" >&2
        return 1
    fi
    return "$status"
}

stage "1. dependencies" ensure_dependencies || summary
stage "2. swift build" swift_build || summary
stage "3. header (generate_header --check)" header_check
stage "4. exports (check_exports)" exports_check
stage "5. ffi (check_ffi)" ffi_check
stage "6. swift test" swift_test
stage "7. C harness (ctest, SwiftPM lib)" c_harness
stage "8. pytest" run_pytest
stage "9. mypy --strict (Python binding)" run_mypy
stage "10. reference docs (build_docs, check_links)" reference_docs
if [ "${REALMDB_SKIP_CMAKE_BUILD:-0}" = "1" ]; then
    echo "REALMDB_SKIP_CMAKE_BUILD=1: skipping the CMake build of libdb.so"
    timings+=("$(printf '%-40s %8s   skipped' "11. CMake build + ctest" "-")")
    timings+=("$(printf '%-40s %8s   skipped' "12. Python wheel" "-")")
else
    stage "11. CMake build + ctest (CMake lib)" cmake_build
    # The wheel carries CMake's library (its Swift runtime is static): no second Swift build.
    stage "12. Python wheel (installed, outside the repo)" bash scripts/test_wheel.sh "$REPO_ROOT/build/cmake/libdb.so"
fi
stage "13. memcheck (valgrind, C harness)" memcheck
stage "14. fault suites (scripts/faults.sh short)" bash scripts/faults.sh short
summary
