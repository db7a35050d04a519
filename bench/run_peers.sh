#!/bin/sh
# Run the shared peer benchmark with realmdb as the "ours" peer.
#   bench/run_peers.sh --n 100000 --reps 3 --peers sqlite,lmdb --json ours.json
# Arguments are passed to peers.py. The shared harness lives in ../shared (next
# to the repository root); the adapter is bench/realmdb_adapter.py.
set -eu
bench_dir="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$bench_dir/.." && pwd)"
shared_dir="$repo_root/../shared"
if [ ! -f "$shared_dir/bench/peers.py" ]; then
    echo "run_peers.sh: $shared_dir/bench/peers.py not found" >&2
    exit 1
fi
PYTHONPATH="$bench_dir${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH
exec python3 "$shared_dir/bench/peers.py" "$@" --ours realmdb_adapter
