"""The ``realmdb`` command: look into a realm file from a terminal or a script.

    realmdb schema FILE
    realmdb count FILE CLASS [QUERY [ARG...]]
    realmdb query FILE CLASS [QUERY [ARG...]] [--sort PROP[:desc]]... [--limit N] [--format table|json|csv]
    realmdb export FILE [--class CLASS]... [--format json|csv] [--depth N] [--output PATH]
    realmdb import FILE [--class CLASS]... [--format json|csv] [--input PATH] [--update]
    realmdb watch FILE CLASS [QUERY [ARG...]]
    realmdb info FILE
    realmdb check FILE
    realmdb compact FILE

Files are opened read-only with the schema they hold (nothing is created or migrated), except by
``import``, which writes its objects in one transaction (all or none), and ``compact``, which
writes a compacted copy next to the file and renames it over the file when no other process has
it open. Query arguments (``$0``, ``$1``, ...) are given after the query, as JSON
where they parse as JSON (``30``, ``"x"``, ``null``, ``[1, 2]``), else as strings.

Links print as the linked object's primary key (its object key where its class has none);
``--depth N`` nests linked objects as objects N levels deep instead. Embedded objects always nest.
Dates print in ISO 8601, binary data in base64, object ids, UUIDs and decimals as strings.

Exit status: 0, 1 for an error (a missing or damaged file, a bad query: the message says which, and
where in the query), 2 for a command line that does not parse. ``check`` exits 1 when it finds damage.
Long work (export, import, check) shows progress on a terminal, and none when its output is piped.
"""
from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import sys
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO

from . import __version__
from ._open import open as open_realm
from .errors import RealmError
from .notifications import CollectionChanges
from .object import RealmObject, record_of, stored_names
from .realm import Realm
from .records import RecordError, cell, import_records, records_from_csv
from .results import Results

#: Rows between two updates of a progress line.
PROGRESS_EVERY = 4096


class CommandError(Exception):
    """A failure the command reports as one line, with exit status 1."""


# -- output ------------------------------------------------------------------------------------


class Progress:
    """``done/total`` on one line of stderr, redrawn in place, on a terminal only."""

    def __init__(self, what: str, stream: TextIO) -> None:
        self.what = what
        self.stream = stream
        self.shown = stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.shown:
            percent = 100 * done // total if total else 100
            self.stream.write(f"\r{self.what}: {done}/{total} ({percent}%)")
            self.stream.flush()

    def end(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def write_table(rows: List[Dict[str, Any]], names: Sequence[str], out: TextIO) -> None:
    cells = [[cell(row[n]) for n in names] for row in rows]
    widths = [max([len(n)] + [len(c[i]) for c in cells]) for i, n in enumerate(names)]
    out.write("  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for c in cells:
        out.write("  ".join(v.ljust(w) for v, w in zip(c, widths)).rstrip() + "\n")


def write_rows(rows: Iterable[Dict[str, Any]], names: Sequence[str], fmt: str, out: TextIO) -> None:
    if fmt == "table":
        write_table(list(rows), names, out)
    elif fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(names)
        for row in rows:
            writer.writerow([cell(row[n]) for n in names])
    else:
        out.write("[")
        count = 0
        for row in rows:
            out.write(",\n " if count else "\n ")
            out.write(json.dumps(row, ensure_ascii=False))
            count += 1
        out.write("\n]\n" if count else "]\n")


# -- commands ----------------------------------------------------------------------------------


def opened(path: str, writable: bool = False) -> Realm:
    if not os.path.exists(path):
        raise CommandError(f"{path}: no such file")
    return open_realm(path, read_only=not writable)


def argument(text: str) -> Any:
    """A query argument: JSON where it parses (30, "x", null, [1, 2]), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def results_of(realm: Realm, class_name: str, query: Optional[str], args: Sequence[str]) -> Results[RealmObject]:
    schema = {c["name"] for c in realm.schema}
    if class_name not in schema:
        raise CommandError(f"no class {class_name!r} in this realm (it has: {', '.join(sorted(schema)) or 'none'})")
    results = realm.objects(class_name)
    if query:
        results = results.filter(query, *[argument(a) for a in args])
    return results


def cmd_schema(a: argparse.Namespace, out: TextIO) -> int:
    with opened(a.file) as realm:
        for cls in realm.schema:
            flags = " (embedded)" if cls.get("embedded") else ""
            out.write(f"{cls['name']}{flags}: {realm.count(cls['name']) if not cls.get('embedded') else '-'} objects\n")
            for name, prop in cls["properties"].items():
                kind = prop["type"] + ("?" if prop.get("optional") else "")
                extra = [k for k in ("primary_key", "indexed") if prop.get(k) or (k == "primary_key" and cls["primary_key"] == name)]
                if prop.get("objectType"):
                    kind += f" -> {prop['objectType']}"
                out.write(f"  {name}: {kind}{'  [' + ', '.join(extra) + ']' if extra else ''}\n")
            for index in cls.get("indexes", []):
                out.write(f"  index ({', '.join(index)})\n")
    return 0


def cmd_count(a: argparse.Namespace, out: TextIO) -> int:
    with opened(a.file) as realm:
        out.write(f"{len(results_of(realm, a.class_name, a.query, a.args))}\n")
    return 0


def cmd_query(a: argparse.Namespace, out: TextIO) -> int:
    with opened(a.file) as realm:
        results = results_of(realm, a.class_name, a.query, a.args)
        if a.sort:
            keys = []
            for spec in a.sort:
                name, _, order = spec.partition(":")
                if order not in ("", "asc", "desc"):
                    raise CommandError(f"--sort {spec}: the order is asc or desc")
                keys.append((name, order != "desc"))
            results = results.sorted(keys)
        if a.limit is not None:
            if a.limit < 0:
                raise CommandError("--limit must be 0 or more")
            results = results.limit(a.limit)
        names = stored_names(realm._meta(a.class_name))
        write_rows((record_of(o, a.depth) for o in results), names, a.format, out)
    return 0


def cmd_export(a: argparse.Namespace, out: TextIO) -> int:
    with opened(a.file) as realm:
        classes = a.classes or [c["name"] for c in realm.schema if not c.get("embedded")]
        if a.format == "csv" and len(classes) != 1:
            raise CommandError("CSV holds one class: name it with --class")
        exported: Dict[str, List[Dict[str, Any]]] = {}
        for name in classes:
            results = results_of(realm, name, None, ())
            names = stored_names(realm._meta(name))
            progress = Progress(f"exporting {name}", sys.stderr)
            total = len(results)

            def rows(results: Results[RealmObject] = results, progress: Progress = progress,
                     total: int = total) -> Iterator[Dict[str, Any]]:
                for i, obj in enumerate(results):
                    if i % PROGRESS_EVERY == 0:
                        progress(i, total)
                    yield record_of(obj, a.depth)
                progress(total, total)
            if a.format == "csv":
                write_rows(rows(), names, "csv", out)
            else:
                exported[name] = list(rows())
            progress.end()
        if a.format == "json":
            json.dump(exported, out, ensure_ascii=False, indent=1)
            out.write("\n")
    return 0


def cmd_import(a: argparse.Namespace, out: TextIO) -> int:
    """Create the objects of a JSON or CSV export in one write: all of them, or none."""
    source = open(a.input, encoding="utf-8", newline="") if a.input else sys.stdin
    try:
        with opened(a.file, writable=True) as realm:
            if a.format == "csv":
                if not a.classes or len(a.classes) != 1:
                    raise CommandError("CSV holds one class: name it with --class")
                records: Dict[str, Any] = {a.classes[0]: records_from_csv(realm, a.classes[0], list(csv.reader(source)))}
            else:
                try:
                    data = json.load(source)
                except ValueError as exc:
                    raise CommandError(f"{a.input or 'stdin'}: not JSON: {exc}") from None
                if isinstance(data, list) and a.classes and len(a.classes) == 1:
                    records = {a.classes[0]: data}
                elif isinstance(data, dict):
                    records = {name: rows for name, rows in data.items() if not a.classes or name in a.classes}
                else:
                    raise CommandError("expected a JSON object of class names and their records (as export "
                                       "writes it), or a list of records with --class")
            progress = Progress("importing", sys.stderr)
            count = import_records(realm, records, a.update, progress)
            progress.end()
    except RecordError as exc:
        raise CommandError(f"nothing imported: {exc}") from None
    finally:
        if source is not sys.stdin:
            source.close()
    out.write(f"imported {count} objects\n")
    return 0


def cmd_info(a: argparse.Namespace, out: TextIO) -> int:
    with opened(a.file) as realm:
        space = realm.file_space()
        versions = realm.version_info()
        out.write(f"file: {os.path.abspath(a.file)}\n")
        out.write(f"file format: {realm.file_format}\n")
        out.write(f"library: realmdb {__version__}\n")
        out.write(f"schema version: {realm.schema_version}\n")
        out.write(f"version: {realm.version}\n")
        out.write(f"file size: {space.file_bytes} bytes ({space.used_bytes} in use)\n")
        out.write(f"active versions: {versions.active_versions}\n")
        out.write(f"readers: {versions.readers}")
        if versions.oldest_reader_lag:
            out.write(f" (the oldest, process {versions.oldest_reader_pid}, is {versions.oldest_reader_lag} commits behind)")
        out.write("\n")
        if versions.stale_readers_cleared:
            out.write(f"stale readers cleared: {versions.stale_readers_cleared}\n")
        classes = [c["name"] for c in realm.schema if not c.get("embedded")]
        out.write(f"classes: {', '.join(f'{n} ({realm.count(n)})' for n in classes) or 'none'}\n")
    return 0


def cmd_check(a: argparse.Namespace, out: TextIO) -> int:
    try:
        with opened(a.file) as realm:
            progress = Progress("checking", sys.stderr)
            report = realm.check(progress)
            progress.end()
    except RealmError as exc:
        out.write(f"{a.file}: damaged: {exc}\n")
        return 1
    out.write(f"{a.file}: ok ({report.classes} classes, {report.objects} objects, {report.values} values, "
              f"{report.blocks} blocks, {report.index_entries} index entries)\n")
    return 0


def cmd_compact(a: argparse.Namespace, out: TextIO) -> int:
    before = os.path.getsize(a.file) if os.path.exists(a.file) else 0
    with opened(a.file) as realm:
        used = realm.file_space().used_bytes
    # Compacting on open replaces the file by its copy only when no other process has it open.
    with open_realm(a.file, should_compact_on_launch=lambda total, in_use: True):
        pass
    after = os.path.getsize(a.file)
    if after >= before and before > used:
        raise CommandError(f"{a.file} is open in another process: close it there first")
    out.write(f"{a.file}: {before} -> {after} bytes\n")
    return 0


def cmd_watch(a: argparse.Namespace, out: TextIO) -> int:
    """Print each change of a live query as commits arrive, until interrupted (Ctrl-C)."""

    async def watch() -> None:
        with opened(a.file) as realm:
            realm.attach_loop()
            results = results_of(realm, a.class_name, a.query, a.args)

            def on_change(found: Results[RealmObject], changes: CollectionChanges) -> None:
                if changes.initial:
                    out.write(f"{len(found)} objects\n")
                else:
                    parts = [f"{len(found)} objects"]
                    for label, positions in (("inserted", changes.insertions), ("deleted", changes.deletions),
                                             ("modified", changes.modifications_new)):
                        if positions:
                            parts.append(f"{label} {positions}")
                    out.write("; ".join(parts) + "\n")
                    for i in changes.insertions + changes.modifications_new:
                        out.write(f"  [{i}] {json.dumps(record_of(found[i], 0), ensure_ascii=False)}\n")
                out.flush()

            with results.observe(on_change):
                await asyncio.Event().wait()  # until cancelled

    try:
        asyncio.run(watch())
    except KeyboardInterrupt:
        pass
    return 0


# -- the command line --------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="realmdb", description="Look into a realm file.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    top.add_argument("--version", action="version", version=f"realmdb {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace, TextIO], int], help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument("file", metavar="FILE", help="the realm file")
        sub.set_defaults(run=run)
        return sub

    def query_arguments(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("class_name", metavar="CLASS")
        sub.add_argument("query", metavar="QUERY", nargs="?", help="a query (docs/QUERY.md), e.g. 'age > $0'")
        sub.add_argument("args", metavar="ARG", nargs="*", help="the query's arguments $0, $1, ... (JSON or text)")

    command("schema", cmd_schema, "list the classes, their properties and object counts")
    query_arguments(command("count", cmd_count, "count the objects of a class, or those a query matches"))
    sub = command("query", cmd_query, "print the objects a query matches")
    query_arguments(sub)
    sub.add_argument("--sort", action="append", metavar="PROP[:asc|desc]", help="sort by a property (repeatable)")
    sub.add_argument("--limit", type=int, metavar="N", help="at most N objects")
    sub.add_argument("--format", choices=("table", "json", "csv"), default="table")
    sub.add_argument("--depth", type=int, default=0, metavar="N", help="nest linked objects N levels deep")
    sub = command("export", cmd_export, "write every object (of some classes) as JSON or CSV")
    sub.add_argument("--class", dest="classes", action="append", metavar="CLASS", help="export this class (repeatable)")
    sub.add_argument("--format", choices=("json", "csv"), default="json")
    sub.add_argument("--depth", type=int, default=0, metavar="N", help="nest linked objects N levels deep")
    sub.add_argument("--output", metavar="PATH", help="write here instead of to stdout")
    sub = command("import", cmd_import, "create objects from JSON or CSV (as export writes them), all or none")
    sub.add_argument("--class", dest="classes", action="append", metavar="CLASS",
                     help="import this class only (CSV: the class of the table)")
    sub.add_argument("--format", choices=("json", "csv"), default="json")
    sub.add_argument("--input", metavar="PATH", help="read here instead of from stdin")
    sub.add_argument("--update", action="store_true",
                     help="update objects whose primary key exists (default: such a record is an error)")
    query_arguments(command("watch", cmd_watch, "print each change of a live query as other processes commit"))
    command("info", cmd_info, "the file's size, versions and readers")
    command("check", cmd_check, "verify the file's structure and indexes (exit status 1 if damaged)")
    command("compact", cmd_compact, "rewrite the file without its free space (when no other process has it open)")
    return top


def main(argv: Optional[List[str]] = None) -> int:
    a = parser().parse_args(argv)
    if getattr(a, "depth", 0) < 0:
        print("realmdb: error: --depth must be 0 or more", file=sys.stderr)
        return 2
    try:
        output = getattr(a, "output", None)
        if output:
            with open(output, "x", encoding="utf-8", newline="") as out:
                return int(a.run(a, out))
        return int(a.run(a, sys.stdout))
    except CommandError as exc:
        print(f"realmdb: error: {exc}", file=sys.stderr)
    except RealmError as exc:
        print(f"realmdb: error: {exc}", file=sys.stderr)
    except BrokenPipeError:  # the reader of the output went away (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush goes nowhere
        return 0
    except OSError as exc:
        print(f"realmdb: error: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
