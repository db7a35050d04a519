#!/usr/bin/env python3
"""Writes the workload of ../shared/bench/peers.py to a file that bench/c/peers_bench.c reads.

The rows, the point-read ids and the expected answers come from peers.py itself (its gen_rows,
gen_read_ids and oracle), so the C benchmark runs exactly the data the Python harness runs.

    python3 bench/c/export_workload.py --n 1000000 --out /tmp/workload.txt

Format (text, one record per line, fields separated by tabs):
    n <N>
    row <id> <name> <age> <score as %.17g> <city>          (N lines)
    read <id>                                               (N/10 lines)
    expect <c> <d count> <d id sum> <e count> <e id sum> <f sum %.17g> <g first id> <g first age> <g first name>
"""
from __future__ import annotations

import argparse
import math
import os
import sys


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    default_shared = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "bench"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shared", default=default_shared, help="directory holding peers.py")
    args = ap.parse_args()
    sys.path.insert(0, args.shared)
    import peers  # noqa: E402  (the shared harness: the single source of the workload)

    rows = peers.gen_rows(args.n, args.seed)
    read_ids = peers.gen_read_ids(args.n, args.seed)
    d = [r[0] for r in rows if 20 <= r[2] <= 30 and r[4] == "city_7"]
    e = [r[0] for r in rows if r[1].startswith("ab")]
    top = min(rows, key=lambda r: (r[2], r[1]))
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"n\t{args.n}\n")
        for i, name, age, score, city in rows:
            out.write(f"row\t{i}\t{name}\t{age}\t{score!r}\t{city}\n")
        for i in read_ids:
            out.write(f"read\t{i}\n")
        out.write("expect\t%d\t%d\t%d\t%d\t%d\t%.17g\t%d\t%d\t%s\n" % (
            sum(1 for r in rows if r[2] > 50), len(d), sum(d), len(e), sum(e),
            math.fsum(r[3] for r in rows), top[0], top[2], top[1]))


if __name__ == "__main__":
    main()
