"""Hostile files: damaged copies of a realm opened and read as a user would.

    python3 tests/faults/hostile_files.py --copies 200 --seed 1

Writes a realm with every property type, lists, sets, dictionaries, links and indexes, dumps
its content, then makes damaged copies of it: truncated at random sizes, with random bits
flipped, with a page zeroed or overwritten by another page. Each copy is opened in a child
process (with a time limit) that runs `check()`, then reads every
object and runs indexed and unindexed queries, and prints a dump. Outcomes per copy:

- error: the library reported a clean error (a realmdb.RealmError, e.g. FileFormatError);
- same: everything read back equals the original (the damage hit unused bytes);
- changed: the copy opened and returned different data without any error (a silent wrong
  answer: the figure the checksums drive to zero);
- crash: the child died from a signal (SIGBUS, SIGSEGV, an abort);
- hang: the child exceeded the time limit;
- other: the child raised something other than a RealmError (damaged data that is no longer
  consistent, e.g. a null in a set of ints, surfacing as a Python error: a wrong answer too).

Prints one line of figures; exits non-zero on any crash, hang, changed or other copy
(--allow-changed tolerates changed and other copies, for a library built without checksums).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ROOT = ROOT / "bindings" / "python"

SCHEMA = [
    {"name": "Person", "primary_key": "id", "properties": {
        "id": "int", "name": {"type": "string", "indexed": True}, "age": {"type": "int?", "indexed": True},
        "score": "double", "flag": "bool", "born": "date?", "blob": "data?", "tags": "string[]",
        "lucky": "int<>", "meta": "string{}", "dogs": "Dog[]", "best": "Dog?"}},
    {"name": "Dog", "properties": {"name": "string", "age": "int"}},
]

CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[2])
import realmdb
try:
    realm = realmdb.open(sys.argv[1])
    realm.check()
    people = realm.objects("Person").sorted("id")
    rows = []
    for p in people:
        rows.append([p.id, p.name, p.age, p.score, p.flag, str(p.born), None if p.blob is None else p.blob.hex(),
                     list(p.tags), sorted(p.lucky), sorted(dict(p.meta).items()), [d.name for d in p.dogs],
                     None if p.best is None else p.best.name])
    queries = [len(realm.objects("Person").filter(q)) for q in
               ("name BEGINSWITH 'p1'", "age > 30", "age == nil", "score < 100.5", "ANY dogs.age > 5", "tags.@count > 1")]
    dogs = sorted(d.name for d in realm.objects("Dog"))
    print(json.dumps({"rows": rows, "queries": queries, "dogs": dogs}))
except realmdb.RealmError as exc:
    print(json.dumps({"error": type(exc).__name__, "message": str(exc)[:200]}))
"""


def build_original(path: str, people: int, seed: int) -> None:
    sys.path.insert(0, str(PYTHON_ROOT))
    import datetime
    import realmdb
    rng = random.Random(seed)
    with realmdb.open(path, SCHEMA) as realm:
        with realm.write():
            dogs = [realm.create("Dog", {"name": f"dog{i}", "age": rng.randrange(15)}) for i in range(people // 2)]
            for i in range(people):
                realm.create("Person", {
                    "id": i, "name": f"p{i}-" + "x" * rng.randrange(40), "age": rng.choice([None, rng.randrange(90)]),
                    "score": rng.uniform(0, 200), "flag": rng.random() < 0.5,
                    "born": datetime.datetime(1950 + rng.randrange(70), 1, 1, tzinfo=datetime.timezone.utc),
                    "blob": bytes(rng.randrange(256) for _ in range(rng.randrange(20))),
                    "tags": [f"t{rng.randrange(9)}" for _ in range(rng.randrange(4))],
                    "lucky": [rng.randrange(50) for _ in range(rng.randrange(4))],
                    "meta": {f"k{j}": f"v{rng.randrange(9)}" for j in range(rng.randrange(3))},
                    "dogs": [rng.choice(dogs) for _ in range(rng.randrange(3))],
                    "best": rng.choice([None] + dogs[:10])})
        # A second commit, so that the file has freed pages, older meta and change records.
        with realm.write():
            for p in list(realm.objects("Person").filter("id < $0", people // 10)):
                p.score = p.score + 1


def damage(data: bytearray, rng: random.Random, page: int) -> str:
    """Damages `data` in place; returns what was done."""
    kind = rng.choice(["truncate", "flip", "flip", "zero-page", "copy-page"])
    pages = max(1, len(data) // page)
    if kind == "truncate":
        size = rng.randrange(len(data))
        del data[size:]
        return f"truncate to {size}"
    if kind == "flip":
        bits = rng.choice([1, 4, 20])
        for _ in range(bits):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        return f"flip {bits} bits"
    target = rng.randrange(2, pages) if pages > 2 else 0
    if kind == "zero-page":
        data[target * page:(target + 1) * page] = bytes(page)
        return f"zero page {target}"
    source = rng.randrange(pages)
    data[target * page:(target + 1) * page] = data[source * page:(source + 1) * page]
    return f"copy page {source} over {target}"


def run_child(path: str, timeout: float) -> tuple:
    env = dict(os.environ)
    try:
        result = subprocess.run([sys.executable, "-c", CHILD, path, str(PYTHON_ROOT)], capture_output=True,
                                text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "hang", ""
    if result.returncode < 0:
        # The reason (a Swift fatal error, the crashed thread's first frames, or under
        # AddressSanitizer its ERROR and SUMMARY lines), not the image list.
        lines = result.stderr.splitlines()
        reason = [line for line in lines if any(k in line for k in ("Fatal error", "crashed", "Assertion", " 0 ", " 1 ", " 2 ",
                                                                    "Sanitizer"))]
        return "crash", f"signal {-result.returncode}: " + " | ".join(reason[:6])[:400]
    if result.returncode != 0:
        return "other", result.stderr.strip()[-300:]
    try:
        return "ok", json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "other", result.stdout[-300:] + result.stderr[-300:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=60)
    parser.add_argument("--people", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--allow-changed", action="store_true",
                        help="do not fail on silently changed copies (changed, and other: damaged data that surfaced "
                             "as a Python error in the reader): for comparing with a library without checksums")
    parser.add_argument("--keep", default=None, help="keep damaged copies that crash or hang in this folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="realmdb-hostile-files-")
    try:
        original = os.path.join(work, "original.realm")
        build_original(original, args.people, args.seed)
        status, expected = run_child(original, args.timeout)
        if status != "ok" or "rows" not in expected:
            print(f"hostile files: the undamaged file did not read back: {status} {expected}")
            return 1
        pristine = bytearray(Path(original).read_bytes())
        rng = random.Random(args.seed)
        counts = {"error": 0, "same": 0, "changed": 0, "crash": 0, "hang": 0, "other": 0}
        findings = []
        for n in range(args.copies):
            data = bytearray(pristine)
            what = damage(data, rng, 4096)
            copy = os.path.join(work, f"copy{n}.realm")
            Path(copy).write_bytes(bytes(data))
            status, out = run_child(copy, args.timeout)
            if status == "ok":
                status = "error" if "error" in out else ("same" if out == expected else "changed")
            counts[status] += 1
            if status in ("changed", "crash", "hang", "other"):
                detail = " | ".join(str(out).split("\n"))[-200:] if status != "changed" else ""
                findings.append(f"copy {n} ({what}): {status} {detail}")
                if args.keep and status in ("crash", "hang"):
                    os.makedirs(args.keep, exist_ok=True)
                    shutil.copy(copy, os.path.join(args.keep, f"seed{args.seed}-copy{n}.realm"))
            for suffix in ("", "-lock"):
                try:
                    os.unlink(copy + suffix)
                except FileNotFoundError:
                    pass
        figures = {"copies": args.copies, **counts}
        if args.json:
            print(json.dumps(figures))
        else:
            print("hostile files: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
        for finding in findings[:30]:
            print("  " + finding)
        bad = counts["crash"] + counts["hang"] + (0 if args.allow_changed else counts["changed"] + counts["other"])
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
