#!/usr/bin/env bash
# tests/package/check_installed.sh PREFIX: checks the C package installed at PREFIX
# (cmake --install <build> --prefix PREFIX) as its users would use it:
#   - the library's file name, SONAME and db_library_version_string() agree on the version;
#   - examples/c/demo.c builds with `cc demo.c $(pkg-config --cflags --libs realmdb)`, and with a
#     CMakeLists that says find_package(realmdb) (tests/package/CMakeLists.txt);
#   - both programs run from another directory, with no LD_LIBRARY_PATH, and find the installed
#     library (not the build tree's, not Berkeley DB's libdb.so);
#   - the installed realmdb command runs on that library.
# Exits non-zero with a message on the first failure.
set -euo pipefail
prefix="$(cd "${1:?usage: check_installed.sh PREFIX}" && pwd)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "check_installed: $*" >&2; exit 1; }

version="$(sed -n 's/^private let versionString: StaticString = "\([0-9.]*\)"$/\1/p' "$repo/Sources/CAPI/LibraryAPI.swift")"
[ -n "$version" ] || fail "no version in Sources/CAPI/LibraryAPI.swift"
major="${version%%.*}"
library="$prefix/lib/realmdb/libdb.so.$version"
[ -f "$library" ] || fail "$library is not installed"
[ "$(readlink "$prefix/lib/realmdb/libdb.so.$major")" = "libdb.so.$version" ] || fail "libdb.so.$major does not link to libdb.so.$version"
soname="$(readelf -d "$library" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"
[ "$soname" = "libdb.so.$major" ] || fail "SONAME is '$soname', expected libdb.so.$major"
if readelf -d "$library" | grep -q 'libswiftCore'; then
    fail "$library needs the Swift runtime (build with REALMDB_STATIC_SWIFT_STDLIB=ON)"
fi
[ -f "$prefix/include/realmdb/db.h" ] || fail "db.h is not installed"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion realmdb)" = "$version" ] || fail "pkg-config --modversion is not $version"
# shellcheck disable=SC2046  # pkg-config prints separate flags
cc -std=c11 -pthread -Wall -Wextra -Werror -o "$work/demo-pkgconfig" "$repo/examples/c/demo.c" $(pkg-config --cflags --libs realmdb)

cmake -S "$repo/tests/package" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
cp "$work/consumer/demo" "$work/demo-cmake"

mkdir -p "$work/elsewhere"
for program in demo-pkgconfig demo-cmake; do
    needed="$(readelf -d "$work/$program" | sed -n 's/.*Shared library: \[\(libdb[^]]*\)\]/\1/p')"
    [ "$needed" = "libdb.so.$major" ] || fail "$program needs '$needed', expected libdb.so.$major"
    resolved="$(cd "$work/elsewhere" && env -u LD_LIBRARY_PATH ldd "$work/$program" | sed -n 's/.*libdb\.so\.[0-9]* => \([^ ]*\).*/\1/p')"
    [ "$(realpath "$resolved")" = "$(realpath "$library")" ] || fail "$program loads '$resolved', not $library"
    out="$(cd "$work/elsewhere" && env -u LD_LIBRARY_PATH "$work/$program" "$work/$program.realm")" \
        || fail "$program failed: $out"
    grep -q "(realmdb $version)" <<<"$out" || fail "$program: db_library_version_string() is not $version: $out"
    grep -q "^Person objects in the realm: 3$" <<<"$out" || fail "$program printed: $out"
done
# The command the package installs, on a file the programs above wrote, from elsewhere.
command="$(cd "$work/elsewhere" && env -u REALMDB_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH "$prefix/bin/realmdb" --version)"
[ "$command" = "realmdb $version" ] || fail "$prefix/bin/realmdb --version printed '$command'"
count="$(cd "$work/elsewhere" && env -u REALMDB_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH \
    "$prefix/bin/realmdb" count "$work/demo-cmake.realm" Person)" || fail "$prefix/bin/realmdb count failed"
[ "$count" = 3 ] || fail "realmdb count printed '$count', expected 3"

bdb="$(cc -print-file-name=libdb.so)"
if [ "$bdb" != "libdb.so" ]; then
    # Berkeley DB's libdb.so is installed (libdb5.3-dev): the programs above resolved realmdb's.
    coexists=", beside Berkeley DB's $(realpath "$bdb")"
fi
echo "check_installed: $prefix: libdb.so.$version (SONAME libdb.so.$major), pkg-config and find_package builds and the realmdb command run from anywhere${coexists:-}"
