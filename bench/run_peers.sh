#!/bin/sh
# Run the shared peer benchmark (../shared/bench/peers.py) with realmdb as the "ours" peer, in
# both of the adapter's modes by default: idiomatic (one object at a time, as the README
# teaches) and batch (create_many, values, set_values), then print one side-by-side table.
#   bench/run_peers.sh --n 100000 --reps 3
#   bench/run_peers.sh --mode idiomatic --n 100000 --peers sqlite,lmdb --json ours.json
# Other arguments go to peers.py. --mode both (default) runs the peers with the idiomatic mode,
# then the batch mode alone, and merges the two JSON files with bench/peers_table.py; --json
# PATH then names the merged run's prefix (PATH.idiomatic.json, PATH.batch.json).
# Installs the peers' Python packages (bench/requirements.txt) when they are missing.
set -eu
bench_dir="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$bench_dir/.." && pwd)"
shared_dir="$repo_root/../shared"
if [ ! -f "$shared_dir/bench/peers.py" ]; then
    echo "run_peers.sh: $shared_dir/bench/peers.py not found" >&2
    exit 1
fi
if ! python3 -c "import objectbox, lmdb" 2>/dev/null; then
    python3 -m pip install -q -r "$bench_dir/requirements.txt"
fi
PYTHONPATH="$bench_dir${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

mode=both json=""
peers="sqlite,objectbox,lmdb"
args=""
while [ $# -gt 0 ]; do
    case "$1" in
        --mode) mode="$2"; shift 2 ;;
        --json) json="$2"; shift 2 ;;
        --peers) peers="$2"; shift 2 ;;
        *) args="$args $1"; shift ;;
    esac
done
run() {  # run MODE PEERS JSON
    # shellcheck disable=SC2086
    REALMDB_BENCH_MODE="$1" python3 "$shared_dir/bench/peers.py" $args --peers "$2" \
        --ours realmdb_adapter ${3:+--json "$3"}
}
case "$mode" in
    idiomatic|batch) run "$mode" "$peers" "$json" ;;
    both)
        prefix="${json:-$(mktemp -d)/peers}"
        for m in idiomatic batch; do
            if [ "$m" = idiomatic ]; then p="$peers"; else p=ours; fi
            if ! run "$m" "$p" "$prefix.$m.json" >"$prefix.$m.log" 2>&1; then
                cat "$prefix.$m.log" >&2
                echo "run_peers.sh: the $m run failed (log above)" >&2
                exit 1
            fi
        done
        python3 "$bench_dir/peers_table.py" "$prefix.idiomatic.json" "$prefix.batch.json"
        ;;
    *) echo "run_peers.sh: --mode is idiomatic, batch or both" >&2; exit 2 ;;
esac
