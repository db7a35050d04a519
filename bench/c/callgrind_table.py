#!/usr/bin/env python3
"""Prints instructions per object for the phases a, b, h and i of peers_bench, and per query for
the query phases c to g, from the dumps a run under `valgrind --tool=callgrind` wrote
(bench/run_c_bench.sh --callgrind does both).

    python3 bench/c/callgrind_table.py DUMP_DIR WORKLOAD

peers_bench zeroes the counters at the start of each of those phases and dumps them at its end
with the trigger "<engine>-<phase>" (CALLGRIND_ZERO_STATS, CALLGRIND_DUMP_STATS_AT). The Ir of a
dump is its "totals:" line, the sum of its cost lines (callgrind's "summary:" line is computed
otherwise and can be lower). Per object means divided by the objects the phase touches, counted
from the workload file: N inserted, N/10 read, N updated, N/2 deleted. Per query means divided
by the repeats of each query phase (QUERY_REPEATS in peers_bench.c), parsing and answer included.
"""
from __future__ import annotations

import os
import re
import sys

ENGINES = ("realmdb", "sqlite")
PHASES = (
    ("a", "a bulk insert N (1 write tx)"),
    ("b", "b N/10 point reads by id"),
    ("h", "h update every score (1 write tx)"),
    ("i", "i delete even ids, N/2 (1 write tx)"),
)
QUERY_PHASES = (
    ("c", "c count age > 50"),
    ("d", "d age 20..30 AND city=='city_7' -> ids"),
    ("e", "e name BEGINSWITH 'ab' -> ids"),
    ("f", "f sum+avg(score)"),
    ("g", "g sort age,name take 100"),
)
QUERY_REPEATS = 20
TRIGGER = re.compile(r"^desc: Trigger: Client Request: (\S+)$", re.M)
TOTALS = re.compile(r"^totals: (\d+)", re.M)


def read_dumps(directory: str) -> dict[str, int]:
    """Ir per trigger name, over the dump files of the directory."""
    found: dict[str, int] = {}
    for name in sorted(os.listdir(directory)):
        if not name.startswith("callgrind."):
            continue
        with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as dump:
            text = dump.read()
        trigger, totals = TRIGGER.search(text), TOTALS.search(text)
        if trigger and totals:
            if trigger.group(1) in found:
                sys.exit(f"callgrind_table.py: two dumps named {trigger.group(1)} in {directory}")
            found[trigger.group(1)] = int(totals.group(1))
    return found


def objects_per_phase(workload: str) -> tuple[int, dict[str, int]]:
    n = reads = 0
    with open(workload, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("n\t"):
                n = int(line.split("\t")[1])
            elif line.startswith("read\t"):
                reads += 1
    return n, {"a": n, "b": reads, "h": n, "i": n // 2}


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: callgrind_table.py DUMP_DIR WORKLOAD")
    dumps = read_dumps(sys.argv[1])
    n, objects = objects_per_phase(sys.argv[2])
    missing = [f"{e}-{p}" for p, _ in PHASES + QUERY_PHASES for e in ENGINES if f"{e}-{p}" not in dumps]
    if missing:
        sys.exit(f"callgrind_table.py: no dump for {', '.join(missing)} in {sys.argv[1]}")
    print(f"| phase (N = {n}) | realmdb instructions/object | SQLite instructions/object | realmdb vs sqlite |")
    print("|---|---:|---:|---:|")
    for letter, title in PHASES:
        ours, theirs = (dumps[f"{e}-{letter}"] / objects[letter] for e in ENGINES)
        print(f"| {title:<46} | {ours:12.0f} | {theirs:12.0f} | {theirs / ours:6.2f}x |")
    print("\nRatios above 1 mean realmdb executes fewer instructions (Ir, callgrind, user space only: "
          "system calls and fsync are not counted). Per object: the phase's Ir divided by the objects "
          f"it inserts (N), reads (N/10 = {objects['b']}), updates (N) or deletes (N/2).")
    print(f"\n| query (N = {n}) | realmdb instructions/query | SQLite instructions/query | realmdb vs sqlite |")
    print("|---|---:|---:|---:|")
    for letter, title in QUERY_PHASES:
        ours, theirs = (dumps[f"{e}-{letter}"] / QUERY_REPEATS for e in ENGINES)
        print(f"| {title:<46} | {ours:12.0f} | {theirs:12.0f} | {theirs / ours:6.2f}x |")
    print("\nPer query: the phase's Ir divided by its repeats, the query text parsed and the answer read "
          "each time by both engines, as in the timed table.")


if __name__ == "__main__":
    main()
