#!/usr/bin/env python3
"""One side-by-side table from several peers.py JSON results (bench/run_peers.sh writes one per
realmdb mode): every peer of every file, one column each, and per realmdb column its ratio to
the best of sqlite3 and ObjectBox on each phase (above 1: realmdb is ahead). Raw LMDB is shown as
the floor, not as a peer to beat: it has no query engine, indexes or schema.

    python3 bench/peers_table.py idiomatic.json batch.json
"""
from __future__ import annotations

import json
import sys
from typing import Dict, List, Optional, Tuple

# Each phase: the key peers.py reports it under, and whether larger is better.
MEASURES = {
    "a": ("rate", True), "b": ("rate", True), "h": ("rate", True), "i": ("rate", True),
    "c": ("per_query_ms", False), "d": ("per_query_ms", False), "e": ("per_query_ms", False),
    "f": ("per_query_ms", False), "g": ("per_query_ms", False), "j": ("median_s", False),
}


def value(phase: str, result: dict) -> Optional[float]:
    measured = result["phases"].get(phase)
    if not measured or not measured.get("check_ok", False):
        return None
    key, _ = MEASURES[phase]
    number = measured.get(key)
    return None if number is None else float(number) * (1000.0 if key == "median_s" else 1.0)


def shown(phase: str, number: Optional[float]) -> str:
    if number is None:
        return "n/a"
    key, _ = MEASURES[phase]
    if key == "rate":
        return f"{number / 1e6:.2f}M/s" if number >= 1e6 else f"{number / 1e3:.1f}k/s"
    return f"{number:.3f} ms"


def main(paths: List[str]) -> int:
    documents = [json.load(open(path)) for path in paths]
    phases: Dict[str, str] = documents[0]["phases"]
    columns: List[Tuple[str, dict]] = []
    for document in documents:
        for result in document["results"]:
            if not any(name == result["peer"] for name, _ in columns):
                columns.append((result["peer"], result))
    ours = [name for name, _ in columns if name.startswith("realmdb")]
    params = documents[0]["params"]
    print(f"N={params['n']:,}  reps={params['reps']} (median)  queries x{params['query_repeats']}")
    header = f"{'phase':<46}" + "".join(f"{name:>20}" for name, _ in columns)
    header += "".join(f"{name + ' vs best peer':>34}" for name in ours)
    rivals = [name for name, _ in columns if name not in ours and name != "lmdb"]
    print(header)
    print("-" * len(header))
    for phase, description in phases.items():
        row = f"{phase + ' ' + description:<46.46}"
        numbers = {name: value(phase, result) for name, result in columns}
        row += "".join(f"{shown(phase, numbers[name]):>20}" for name, _ in columns)
        _, larger_is_better = MEASURES[phase]
        peers = [numbers[name] for name in rivals if numbers[name] is not None]
        for name in ours:
            mine = numbers[name]
            if mine is None or not peers:
                row += f"{'n/a':>34}"
                continue
            best = max(peers) if larger_is_better else min(peers)
            ratio = mine / best if larger_is_better else best / mine
            row += f"{ratio:>33.2f}x"
        print(row)
    print("-" * len(header))
    print(f"{'peak RSS MB':<46}" + "".join(f"{result.get('peak_rss_mb', 0):>20.0f}" for _, result in columns))
    print(f"{'db size after insert MB':<46}"
          + "".join(f"{result.get('sizes', {}).get('after_a_mb', 0):>20.1f}" for _, result in columns))
    failed = [name for name, result in columns if result["status"] != "ok"]
    mismatched = [document for document in documents if document.get("mismatch")]
    if failed:
        print("not ok: " + ", ".join(f"{name} ({result['status']})" for name, result in columns if name in failed))
    print("every check agrees with the oracle" if not mismatched else "!!! MISMATCH: see the JSON files")
    return 1 if mismatched else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1:]))
