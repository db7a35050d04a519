# shellcheck shell=bash
# scripts/lib.sh: shared by scripts/test.sh, scripts/demo.sh, scripts/faults.sh and
# tests/c/run_asan.sh (source it).
#
# Installs what a fresh Debian machine with the Swift toolchain lacks, only
# when it is missing: liblmdb-dev, cmake and ninja-build from apt (with sudo
# when not root), and the Python packages of requirements-dev.txt from pip.

set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
export DEBIAN_FRONTEND=noninteractive

banner() {
    printf '\n==================================================================\n'
    printf '== %s\n' "$*"
    printf '==================================================================\n'
}

die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# fault_suite_form USAGE [FORM]: sets form to FORM (default short) when it is short or long, the
# two forms of the fault suites; else prints "usage: USAGE short|long" and exits 2.
fault_suite_form() {
    form="${2:-short}"
    case "$form" in
        short | long) ;;
        *) echo "usage: $1 short|long" >&2; exit 2 ;;
    esac
}

# Runs a command as root: directly when root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -E "$@"
    else
        die "need root (or sudo) to run: $*"
    fi
}

apt_updated=0
apt_install() {
    if [ "$apt_updated" -eq 0 ]; then
        as_root apt-get update -qq || return 1
        apt_updated=1
    fi
    as_root apt-get install -y -qq --no-install-recommends "$@"
}

# ensure_apt_packages PKG...: installs those not installed yet.
ensure_apt_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "installing: ${missing[*]}"
        apt_install "${missing[@]}" || return 1
    else
        echo "apt packages present: $*"
    fi
}

# ensure_python_dev_packages: pytest, hypothesis, mypy and markdown (requirements-dev.txt).
ensure_python_dev_packages() {
    if ! command -v "$PYTHON" >/dev/null 2>&1; then
        ensure_apt_packages python3 python3-pip || return 1
    fi
    if "$PYTHON" -c 'import pytest, hypothesis, mypy, markdown' 2>/dev/null; then
        echo "python packages present: $("$PYTHON" -m pytest --version 2>&1 | head -n1)," \
            "$("$PYTHON" -m mypy --version 2>&1 | head -n1)"
        return 0
    fi
    echo "installing python packages from requirements-dev.txt"
    if ! "$PYTHON" -m pip install -q -r "$REPO_ROOT/requirements-dev.txt"; then
        # Debian's own python3 refuses pip installs (PEP 668): use its packages.
        echo "pip install failed; trying Debian's python3-pytest python3-hypothesis python3-mypy python3-markdown"
        ensure_apt_packages python3-pytest python3-hypothesis python3-mypy python3-markdown || return 1
    fi
    if ! "$PYTHON" -c 'import pytest, hypothesis, mypy, markdown'; then
        echo "error: pytest/hypothesis/mypy/markdown could not be installed" >&2
        return 1
    fi
}

# ensure_dependencies: everything the build, the tests and the demos use.
ensure_dependencies() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "error: the Swift toolchain (swift) is not on PATH; install Swift 6.3 first" >&2
        return 1
    fi
    # libdb5.3-dev: Berkeley DB's own libdb.so, which the installed C package must coexist with
    # (tests/package/check_installed.sh).
    local pkgs=(liblmdb-dev libsqlite3-dev libdb5.3-dev cmake ninja-build pkg-config valgrind)
    command -v cc >/dev/null 2>&1 || pkgs+=(gcc)
    command -v c++ >/dev/null 2>&1 || pkgs+=(g++)
    command -v nm >/dev/null 2>&1 || pkgs+=(binutils)
    ensure_apt_packages "${pkgs[@]}" || return 1
    ensure_python_dev_packages
}

# The library SwiftPM builds (debug), and the folder of its generated header.
swiftpm_library() { echo "$REPO_ROOT/.build/debug/libdb.so"; }
swiftpm_swift_header() { echo "$REPO_ROOT/.build/debug/CAPI.build/include/CAPI-Swift.h"; }

# swift_build: `swift build` (debug), the build everything else uses.
swift_build() {
    (cd "$REPO_ROOT" && swift build) || return 1
    if [ ! -f "$(swiftpm_library)" ]; then
        echo "error: swift build did not produce $(swiftpm_library)" >&2
        return 1
    fi
}
