"""The ``realmdb`` command (realmdb/cli.py) as a user runs it: every command on a realm with links,
embedded objects and collections, each output format, and the clear error (exit status 1) of each
bad input: a missing or damaged file, an unknown class, a bad query, a negative number, a file
that another process holds open."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import realmdb
from realmdb import cli
from conftest import child_env

SCHEMA = [
    {"name": "Address", "embedded": True, "properties": {"street": "string"}},
    {"name": "Person", "primary_key": "id",
     "properties": {"id": "int", "name": "string", "age": "int?", "born": "date?", "photo": "data?",
                    "home": "Address?", "friend": "Person?", "tags": "string[]"}},
    {"name": "Note", "properties": {"text": "string", "about": "Person?"}},
]


@pytest.fixture
def realm_file(tmp_path):
    path = str(tmp_path / "people.realm")
    with realmdb.open(path, SCHEMA) as realm, realm.write():
        ann = realm.create("Person", {"id": 1, "name": "Ann", "age": 30, "photo": b"\x00\x01",
                                      "home": {"street": "Main"}, "tags": ["a", "b"]})
        realm.create("Person", {"id": 2, "name": "Bob", "age": None, "friend": ann,
                                "born": realmdb_date(1990)})
        realm.create("Note", {"text": "hello", "about": ann})
    return path


def realmdb_date(year):
    import datetime as dt
    return dt.datetime(year, 1, 2, tzinfo=dt.timezone.utc)


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_schema_lists_classes_properties_and_counts(capsys, realm_file):
    status, out, _ = run(capsys, "schema", realm_file)
    assert status == 0
    assert "Person: 2 objects\n" in out and "  id: int  [primary_key, indexed]\n" in out
    assert "  friend: object? -> Person\n" in out or "friend: object -> Person" in out
    assert "Address (embedded): - objects\n" in out and "Note: 1 objects\n" in out


def test_count_with_and_without_a_query(capsys, realm_file):
    assert run(capsys, "count", realm_file, "Person")[:2] == (0, "2\n")
    assert run(capsys, "count", realm_file, "Person", "age > $0", "20")[:2] == (0, "1\n")
    assert run(capsys, "count", realm_file, "Person", "name == $0", "Bob")[:2] == (0, "1\n")
    assert run(capsys, "count", realm_file, "Person", "tags == $0", '"a"')[:2] == (0, "1\n")


def test_query_formats_sort_limit_and_links(capsys, realm_file):
    status, out, _ = run(capsys, "query", realm_file, "Person", "--format", "json", "--sort", "name:desc")
    assert status == 0
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["Bob", "Ann"]
    bob, ann = rows
    assert bob["friend"] == 1 and bob["born"] == "1990-01-02T00:00:00+00:00" and bob["age"] is None
    assert ann["home"] == {"street": "Main"} and ann["tags"] == ["a", "b"] and ann["photo"] == "AAE="
    nested = json.loads(run(capsys, "query", realm_file, "Person", "id == 2", "--format", "json", "--depth", "1")[1])
    assert nested[0]["friend"]["name"] == "Ann" and nested[0]["friend"]["friend"] is None
    status, out, _ = run(capsys, "query", realm_file, "Person", "--format", "csv", "--sort", "id", "--limit", "1")
    assert list(csv.reader(io.StringIO(out))) == [
        ["id", "name", "age", "born", "photo", "home", "friend", "tags"],
        ["1", "Ann", "30", "", "AAE=", '{"street": "Main"}', "", '["a", "b"]']]
    status, out, _ = run(capsys, "query", realm_file, "Person", "--sort", "id")
    lines = out.splitlines()
    assert lines[0].split() == ["id", "name", "age", "born", "photo", "home", "friend", "tags"]
    assert lines[2].startswith("1   Ann") and len(lines) == 4


def test_export_json_and_csv(tmp_path, capsys, realm_file):
    status, out, _ = run(capsys, "export", realm_file)
    data = json.loads(out)
    assert status == 0 and set(data) == {"Person", "Note"}  # embedded objects nest in their parents
    assert data["Note"] == [{"text": "hello", "about": 1}]
    target = tmp_path / "people.csv"
    assert run(capsys, "export", realm_file, "--class", "Person", "--format", "csv", "--output", str(target))[0] == 0
    assert target.read_text().startswith("id,name,age,born,photo,home,friend,tags\n1,Ann,30,")
    status, _, err = run(capsys, "export", realm_file, "--class", "Person", "--format", "csv", "--output", str(target))
    assert status == 1 and "File exists" in err  # never overwritten
    status, _, err = run(capsys, "export", realm_file, "--format", "csv")
    assert status == 1 and "CSV holds one class" in err


def test_info_check_and_compact(tmp_path, capsys, realm_file):
    status, out, _ = run(capsys, "info", realm_file)
    assert status == 0 and "readers:" in out and "classes: Person (2), Note (1)\n" in out
    assert "file format: 3\n" in out and f"library: realmdb {realmdb.__version__}\n" in out
    status, out, _ = run(capsys, "check", realm_file)
    assert status == 0 and re.search(r": ok \(3 classes, \d+ objects, \d+ values, \d+ blocks, \d+ index entries\)\n$", out)
    with realmdb.open(realm_file) as realm, realm.write():
        for i in range(3, 3000):
            realm.create("Person", {"id": i, "name": "x" * 100})
        realm.objects("Person").filter("id > 2").delete_all()
    before = os.path.getsize(realm_file)
    status, out, err = run(capsys, "compact", realm_file)
    assert status == 0 and os.path.getsize(realm_file) < before, err
    assert run(capsys, "count", realm_file, "Person")[1] == "2\n"


def test_compact_refuses_a_file_open_elsewhere(capsys, realm_file):
    with realmdb.open(realm_file) as realm, realm.write():
        for i in range(3, 2000):
            realm.create("Person", {"id": i, "name": "x" * 100})
        realm.objects("Person").filter("id > 2").delete_all()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, realmdb; r = realmdb.open(sys.argv[1]); "
                               "print('open', flush=True); sys.stdin.read()", realm_file],
                              env=child_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        status, _, err = run(capsys, "compact", realm_file)
        assert status == 1 and "open in another process" in err
    finally:
        holder.communicate("", timeout=30)


def test_check_reports_damage_with_status_1(tmp_path, capsys, realm_file):
    size = os.path.getsize(realm_file)
    with open(realm_file, "r+b") as f:  # every page but the two meta pages
        f.seek(2 * 4096)
        f.write(os.urandom(size - 2 * 4096))
    status, out, err = run(capsys, "check", realm_file)
    assert status == 1 and ("damaged" in out or "error" in err)


@pytest.mark.parametrize("argv, message", [
    (["count", "{dir}/missing.realm", "Person"], "no such file"),
    (["schema", "{dir}/junk.realm"], "not a realmdb file"),
    (["count", "{file}", "Dog"], "no class 'Dog'"),
    (["count", "{file}", "Person", "age >"], "at offset 5"),
    (["count", "{file}", "Person", "name == 'a\x00b'"], "NUL"),
    (["query", "{file}", "Person", "--limit", "-1"], "--limit must be 0 or more"),
    (["query", "{file}", "Person", "--sort", "name:up"], "asc or desc"),
    (["query", "{file}", "Person", "--sort", "nope"], "nope"),
    (["query", "{file}", "Person", "--depth", "-1"], "--depth must be 0 or more"),
])
def test_bad_input_is_one_clear_line_and_status_1(tmp_path, capsys, realm_file, argv, message):
    (tmp_path / "junk.realm").write_bytes(os.urandom(8192))
    argv = [a.format(dir=tmp_path, file=realm_file) for a in argv]
    status, out, err = run(capsys, *argv)
    assert status in (1, 2) and message in err and err.startswith("realmdb: error: ") and out == ""


def test_reading_creates_nothing(tmp_path, capsys):
    assert run(capsys, "schema", str(tmp_path / "new.realm"))[0] == 1
    assert not (tmp_path / "new.realm").exists()


def test_every_command_has_help():
    for command in ("schema", "count", "query", "export", "watch", "info", "check", "compact"):
        done = subprocess.run([sys.executable, "-m", "realmdb.cli", command, "--help"], env=child_env(),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith(f"usage: realmdb {command}")


def test_python_dash_m_realmdb_is_the_command(realm_file):
    done = subprocess.run([sys.executable, "-m", "realmdb", "count", realm_file, "Person", "age > 20"],
                          env=child_env(), capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1\n", "")
    done = subprocess.run([sys.executable, "-m", "realmdb", "count", realm_file, "Nobody"],
                          env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("realmdb: error:") and "Nobody" in done.stderr


def test_watch_prints_the_changes_other_processes_commit(realm_file):
    watcher = subprocess.Popen([sys.executable, "-m", "realmdb.cli", "watch", realm_file, "Person", "age > $0", "20"],
                               env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watcher.stdout.readline() == "1 objects\n"
        code = ("import sys, realmdb\nwith realmdb.open(sys.argv[1]) as r, r.write():\n"
                "    r.create('Person', {'id': 7, 'name': 'Cy', 'age': 40})\n")
        subprocess.run([sys.executable, "-c", code, realm_file], env=child_env(), check=True, timeout=60)
        assert watcher.stdout.readline() == "2 objects; inserted [1]\n"
        assert json.loads(watcher.stdout.readline().split("] ", 1)[1])["name"] == "Cy"
    finally:
        watcher.send_signal(signal.SIGINT)
        out, err = watcher.communicate(timeout=30)
    assert watcher.returncode == 0 and "Traceback" not in err


def test_progress_shows_on_a_terminal_only(capsys, realm_file, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["export", realm_file, "--class", "Person"]) == 0
    assert cli.main(["check", realm_file]) == 0
    shown = terminal.getvalue()
    assert "\rexporting Person: 2/2 (100%)\n" in shown and "\rchecking: " in shown
    monkeypatch.undo()
    capsys.readouterr()
    assert cli.main(["export", realm_file, "--class", "Person"]) == 0
    assert capsys.readouterr().err == ""  # piped: no progress


# -- import -------------------------------------------------------------------------------------


@pytest.fixture
def empty_file(tmp_path):
    path = str(tmp_path / "empty.realm")
    realmdb.open(path, SCHEMA).close()
    return path


def test_import_gives_back_what_export_wrote(tmp_path, capsys, realm_file, empty_file):
    with realmdb.open(realm_file) as realm, realm.write():
        ann = realm.object_for_primary_key("Person", 1)
        ann.friend = realm.object_for_primary_key("Person", 2)  # a cycle: links are set last
    exported = tmp_path / "all.json"
    assert run(capsys, "export", realm_file, "--output", str(exported))[0] == 0
    assert run(capsys, "import", empty_file, "--input", str(exported))[:2] == (0, "imported 3 objects\n")
    assert json.loads(run(capsys, "export", empty_file)[1]) == json.loads(exported.read_text())
    table = tmp_path / "people.csv"
    assert run(capsys, "export", realm_file, "--class", "Person", "--format", "csv", "--output", str(table))[0] == 0
    other = str(tmp_path / "other.realm")
    realmdb.open(other, SCHEMA).close()
    assert run(capsys, "import", other, "--class", "Person", "--format", "csv", "--input", str(table))[0] == 0
    assert json.loads(run(capsys, "export", other, "--class", "Person")[1]) == \
        json.loads(run(capsys, "export", realm_file, "--class", "Person")[1])


def test_import_is_all_or_nothing_and_updates_only_when_asked(tmp_path, capsys, realm_file):
    records = tmp_path / "people.json"
    records.write_text(json.dumps({"Person": [{"id": 3, "name": "Cy"}, {"id": 1, "name": "Ann again"}]}))
    status, _, err = run(capsys, "import", realm_file, "--input", str(records))
    assert status == 1 and "nothing imported: Person[1]:" in err and "already exists" in err
    assert run(capsys, "count", realm_file, "Person")[1] == "2\n"  # Cy was not kept either
    assert run(capsys, "import", realm_file, "--input", str(records), "--update")[0] == 0
    assert run(capsys, "count", realm_file, "Person")[1] == "3\n"
    assert run(capsys, "count", realm_file, "Person", "name == 'Ann again' AND age == 30")[1] == "1\n"


@pytest.mark.parametrize("records, message", [
    ({"Person": [{"id": 5, "nope": 1}]}, "Person[0]: Person has no property 'nope'"),
    ({"Person": [{"id": "5", "name": "x"}]}, "Person[0].id: expected int"),
    ({"Person": [{"id": True, "name": "x"}]}, "Person[0].id: expected int"),
    ({"Person": [{"id": 5, "name": None}]}, "Person[0].name: a value is required"),
    ({"Person": [{"id": 5, "name": "x", "photo": "%%%"}]}, "Person[0].photo: not a valid data"),
    ({"Person": [{"id": 5, "name": "x", "born": "yesterday"}]}, "Person[0].born: not a valid date"),
    ({"Person": [{"id": 5, "name": "x", "friend": 99}]}, "Person[0].friend: no Person with primary key 99"),
    ({"Person": [{"id": 5, "name": "x", "tags": "a"}]}, "Person[0].tags: expected a list"),
    ({"Person": [{"id": 5, "name": "x", "id": 2 ** 70}]}, "Person[0]"),
    ({"Address": [{"street": "x"}]}, "Address is embedded"),
    ({"Dog": [{}]}, "no class 'Dog'"),
    ({"Person": {"id": 5}}, "Person: expected a list of records"),
    ({"Person": [[5, "x"]]}, "Person[0]: a record is a JSON object"),
])
def test_a_record_that_does_not_fit_imports_nothing(tmp_path, capsys, realm_file, records, message):
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(records))
    status, out, err = run(capsys, "import", realm_file, "--input", str(source))
    assert status == 1 and message in err and err.startswith("realmdb: error: ") and out == "", err
    assert run(capsys, "count", realm_file, "Person")[1] == "2\n"


@pytest.mark.parametrize("text, argv, message", [
    ("{not json", [], "not JSON"),
    ("[1, 2]", [], "expected a JSON object of class names"),
    ("id,name\n5\n", ["--class", "Person", "--format", "csv"], "line 2: 1 cells for 2 columns"),
    ("id,nope\n5,x\n", ["--class", "Person", "--format", "csv"], "line 1: Person has no property 'nope'"),
    ("id,name\nfive,x\n", ["--class", "Person", "--format", "csv"], "line 2, id: not a valid int"),
    ("id,name\n5,x\n", ["--format", "csv"], "CSV holds one class"),
])
def test_bad_import_input_is_a_clear_error(tmp_path, capsys, realm_file, text, argv, message):
    source = tmp_path / "input"
    source.write_text(text)
    status, _, err = run(capsys, "import", realm_file, "--input", str(source), *argv)
    assert status == 1 and message in err, err
    assert run(capsys, "count", realm_file, "Person")[1] == "2\n"

