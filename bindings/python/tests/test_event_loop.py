"""Notifications through an asyncio loop (``attach_loop``), as the README teaches them: no
``refresh()`` or ``deliver_notifications()`` anywhere, callbacks that call back into the library,
commits from other threads and processes. Each scenario runs in a child process with a time
limit, because a frozen event loop cannot time itself out."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

SCHEMA = [{"name": "Item", "primary_key": "id", "properties": {"id": "int", "n": "int"}}]

#: Child-side code (placed at the top level of a scenario): ``await run_writer(kind, code, done,
#: seconds)`` runs ``code`` in another thread or process (``kind``), waits for ``done``, then for
#: the writer to finish.
RUN_WRITER = textwrap.indent("""
async def run_writer(kind, code, done, seconds):
    if kind == "thread":
        writer = threading.Thread(target=lambda: exec(code, {}))
        writer.start()
    else:
        writer = await asyncio.create_subprocess_exec(sys.executable, "-c", code)
    await asyncio.wait_for(done.wait(), seconds)
    if kind == "thread":
        writer.join()
    else:
        assert await writer.wait() == 0
""", " " * 8)


def test_the_initial_call_arrives_through_the_loop(run_python, tmp_realm_path):
    result = run_python(f"""
        import asyncio, realmdb
        async def main():
            r = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})
            r.attach_loop()
            got = asyncio.Event()
            calls = []
            token = r.objects("Item").observe(lambda res, c: (calls.append(c.initial), got.set()))
            await asyncio.wait_for(got.wait(), 5)   # no commit, no refresh: the loop delivers it
            token.invalidate()
            r.close()
            print(calls)
        asyncio.run(main())
    """, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[True]"


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_a_callback_reading_its_results_sees_every_commit(run_python, tmp_realm_path, writer):
    """The deadlock and the lost wake-up of issue 13: a callback that reads its results (len,
    an attribute) while commits keep arriving; the loop must reach the last commit by itself."""
    commits = 300
    result = run_python(f"""
        import asyncio, json, subprocess, sys, threading, time, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {SCHEMA!r}, {commits}
        WRITE = ("import realmdb, time, random\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    with w.write():\\n"
                 "        w.create('Item', {{'id': i, 'n': i}})\\n"
                 "    time.sleep(random.uniform(0, 0.004))\\n"
                 "w.close()\\n")
{RUN_WRITER}
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            items = r.objects("Item").sorted("n")
            done = asyncio.Event()
            seen = {{"count": 0, "wrong": 0, "calls": 0}}
            def on_change(results, changes):
                seen["calls"] += 1
                count = len(results)                      # back into the library
                if count and results[count - 1].n != count - 1:
                    seen["wrong"] += 1
                if not changes.initial and count != seen["count"] + len(changes.insertions) - len(changes.deletions):
                    seen["wrong"] += 1
                seen["count"] = count
                if count == COMMITS:
                    done.set()
            token = items.observe(on_change)
            await run_writer({writer!r}, WRITE, done, 60)
            token.invalidate()
            r.close()
            print(json.dumps(seen))
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["count"] == commits and seen["wrong"] == 0
    assert seen["calls"] >= 2


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_a_callback_writes_back_one_object_at_a_time(run_python, tmp_realm_path, writer):
    """A callback on the loop that answers each commit from elsewhere with writes of its own, one
    object at a time as the README writes them: a primary-key lookup, an attribute write
    (through the realm's property writer) and a create (through its object creator)."""
    commits = 40
    result = run_python(f"""
        import asyncio, json, subprocess, sys, threading, time, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {SCHEMA!r}, {commits}
        WRITE = ("import realmdb, time\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    with w.write():\\n"
                 "        w.create('Item', {{'id': i, 'n': i}})\\n"
                 "    time.sleep(0.002)\\n"
                 "w.close()\\n")
{RUN_WRITER}
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            done = asyncio.Event()
            def on_change(results, changes):
                new = [results[i].id for i in changes.insertions if results[i].id < 1000]
                if new:
                    with r.write():
                        for key in new:
                            item = r.object_for_primary_key("Item", key)
                            item.n = item.n + 100
                            r.create("Item", {{"id": 1000 + key, "n": -key}})
                if r.count("Item") == 2 * COMMITS:
                    done.set()
            token = r.objects("Item").observe(on_change)
            await run_writer({writer!r}, WRITE, done, 60)
            token.invalidate()
            originals = sorted((o.id, o.n) for o in r.objects("Item").filter("id < 1000"))
            mirrors = sorted((o.id, o.n) for o in r.objects("Item").filter("id >= 1000"))
            print(json.dumps([originals, mirrors, len(r._writers), len(r._creators), len(r._readers)]))
            r.close()
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    originals, mirrors, writers, creators, readers = json.loads(result.stdout)
    assert originals == [[i, i + 100] for i in range(commits)]
    assert mirrors == [[1000 + i, -i] for i in range(commits)]
    assert (writers, creators, readers) == (1, 1, 1)  # the fast paths were the ones taken


def test_exit_while_another_process_commits_does_not_hang(run_python, tmp_realm_path):
    """Interpreter exit while another process commits and the loop's callback reads results:
    the process ends (the watcher's call in progress is waited for, none follows)."""
    result = run_python(f"""
        import asyncio, subprocess, sys, realmdb
        PATH, SCHEMA = {tmp_realm_path!r}, {SCHEMA!r}
        code = ("import realmdb\\n"
                f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                "for i in range(2000):\\n"
                "    with w.write():\\n"
                "        w.create('Item', {{'id': i, 'n': i}})\\n")
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            items = r.objects("Item")
            token = items.observe(lambda res, c: len(res))
            proc = subprocess.Popen([sys.executable, "-c", code])
            await asyncio.sleep(1.0)
            proc.kill()
            proc.wait()
            print("leaving with the realm open")
        asyncio.run(main())
    """, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "leaving" in result.stdout


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_a_section_key_function_may_release_a_realm_while_the_loop_delivers(run_python, tmp_realm_path, writer):
    """Sectioned results observed through the loop, with a key function that reads its object
    and drops the last reference to another realm (as a garbage collection may): commits from
    another thread or process arrive, and the loop delivers each one without a lock-order trap."""
    result = run_python(f"""
        import asyncio, gc, os, subprocess, sys, tempfile, threading, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {SCHEMA!r}, 20
        WRITE = ("import realmdb\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    with w.write():\\n"
                 "        w.create('Item', {{'id': i, 'n': i % 3}})\\n"
                 "w.close()\\n")
        others = []
        scratch = tempfile.mkdtemp()

        def key(item):
            if others:
                others.pop()   # the last reference: that realm is released inside the key function
                gc.collect()
            return item.n

        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            sectioned = r.objects("Item").sectioned(key, sort=["id"])
            done = asyncio.Event()
            seen = []
            def on_change(sections, changes):
                seen.append(sum(len(s) for s in sections))
                others.append(realmdb.open(os.path.join(scratch, f"other-{{len(seen)}}.realm"), SCHEMA))
                if seen[-1] == COMMITS:
                    done.set()
            token = sectioned.observe(on_change)
            if {writer!r} == "thread":
                threading.Thread(target=lambda: exec(WRITE, {{}})).start()
            else:
                subprocess.run([sys.executable, "-c", WRITE], check=True)
            await asyncio.wait_for(done.wait(), 20)
            token.invalidate()
            others.clear()
            gc.collect()
            r.close()
            print(seen[-1])
        asyncio.run(main())
    """, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "20"


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_sections_by_key_path_follow_commits_through_the_loop(run_python, tmp_realm_path, writer):
    """Sections updated from each commit's changes (not evaluated again), computed ahead on the
    library's thread, with key-path filters per callback, as a user gets them: through the loop,
    from another thread or process, with callbacks that read the sections back."""
    result = run_python(f"""
        import asyncio, json, sys, threading, realmdb
        PATH, SCHEMA = {tmp_realm_path!r}, {SCHEMA!r}
        WRITE = ("import realmdb\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 "for i in range(200):\\n"
                 "    with w.write():\\n"
                 "        w.create('Item', {{'id': 1000 + i, 'n': i % 7}})\\n"
                 "        if i % 3 == 0:\\n"
                 "            w.object_for_primary_key('Item', i % 50).n = (i // 3) % 5\\n"
                 "        if i % 11 == 0:\\n"
                 "            w.delete(w.object_for_primary_key('Item', 1000 + i))\\n"
                 "w.close()\\n")
{RUN_WRITER}
        def layout(sections):
            return [[s.key, [o.id for o in s]] for s in sections]

        async def main():
            r = realmdb.open(PATH, SCHEMA)
            with r.write():
                for i in range(50):
                    r.create("Item", {{"id": i, "n": i % 5}})
            r.attach_loop()
            by_n = r.objects("Item").sectioned("n")
            done = asyncio.Event()
            seen = {{"wrong": 0, "calls": 0, "modified_without_paths": 0, "modified_by_n": 0}}
            previous = [layout(by_n)]
            def on_n(sections, changes):
                seen["calls"] += 1
                now = layout(sections)                      # back into the library
                if not changes.initial:
                    seen["modified_by_n"] += len(changes.modifications)
                previous[0] = now
                if sum(len(ids) for _, ids in now) == 50 + 200 - 19:
                    done.set()
            def on_nothing(sections, changes):
                seen["modified_without_paths"] += len(changes.modifications)
            tokens = [by_n.observe(on_n, key_paths=["n"]), by_n.observe(on_nothing, key_paths=[])]
            await run_writer({writer!r}, WRITE, done, 60)
            fresh = layout(r.objects("Item").filter("TRUEPREDICATE").sectioned("n"))
            seen["wrong"] += previous[0] != fresh
            for t in tokens:
                t.invalidate()
            r.close()
            print(json.dumps(seen))
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["wrong"] == 0, seen
    assert seen["calls"] >= 2
    assert seen["modified_without_paths"] == 0, "key_paths=[] reports no modification"


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_sorted_results_follow_objects_moving_among_thousands(run_python, tmp_realm_path, writer):
    """Sorted results of 5,000 objects on the loop while another thread or process moves one
    object, or deletes one, or adds one, per commit: each changeset, applied to the ids the
    callback last saw, gives the ids it reads now (the notifier finds the old indices in the
    version it last delivered, pinned for it, and edits its keys in place)."""
    commits = 60
    result = run_python(f"""
        import asyncio, json, subprocess, sys, threading, time, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {SCHEMA!r}, {commits}
        seed = realmdb.open(PATH, SCHEMA)
        with seed.write():
            seed.create_many("Item", [{{"id": i, "n": (i * 7919) % 1000}} for i in range(5000)])
        seed.close()
        WRITE = ("import realmdb, time\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    with w.write():\\n"
                 "        if i % 3 == 0:\\n"
                 "            w.object_for_primary_key('Item', (i * 613) % 5000).n = (i * 37) % 1000\\n"
                 "        elif i % 3 == 1:\\n"
                 "            w.delete(w.object_for_primary_key('Item', (i * 613) % 5000))\\n"
                 "        else:\\n"
                 "            w.create('Item', {{'id': 10000 + i, 'n': (i * 11) % 1000}})\\n"
                 "    time.sleep(0.003)\\n"
                 "with w.write():\\n"
                 "    w.create('Item', {{'id': 99999, 'n': -1}})\\n"
                 "w.close()\\n")
{RUN_WRITER}
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            items = r.objects("Item").sorted("n")
            done = asyncio.Event()
            seen = {{"ids": None, "wrong": 0, "calls": 0}}
            def on_change(results, changes):
                seen["calls"] += 1
                ids = results.values("id")                # back into the library
                if not changes.initial:
                    old = seen["ids"]
                    kept = [k for i, k in enumerate(old) if i not in set(changes.deletions)]
                    for index in sorted(changes.insertions):
                        kept.insert(index, ids[index])
                    if kept != ids or any(ids[new] != old[was] for was, new in changes.moves):
                        seen["wrong"] += 1
                seen["ids"] = ids
                if ids and ids[0] == 99999:
                    done.set()
            token = items.observe(on_change)
            await run_writer({writer!r}, WRITE, done, 60)
            token.invalidate()
            r.close()
            print(json.dumps({{"wrong": seen["wrong"], "calls": seen["calls"], "count": len(seen["ids"])}}))
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["wrong"] == 0 and seen["calls"] >= 2
    assert seen["count"] == 5000 - commits // 3 + commits // 3 + 1


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_sections_follow_objects_moving_among_thousands(run_python, tmp_realm_path, writer):
    """Sections by ``n`` of 5,000 objects (100 sections) on the loop while another thread or
    process moves one object to another section, deletes one, adds one, or changes the ``id``
    order inside a section, per commit: each changeset, applied to the sections the callback last
    saw, gives the sections it reads now, and the object written is reported modified."""
    commits = 60
    schema = [{"name": "Item", "primary_key": "id", "properties": {"id": "int", "n": "int", "tag": "string"}}]
    result = run_python(f"""
        import asyncio, json, subprocess, sys, threading, time, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {schema!r}, {commits}
        seed = realmdb.open(PATH, SCHEMA)
        with seed.write():
            seed.create_many("Item", [{{"id": i, "n": (i * 7919) % 100, "tag": "t"}} for i in range(5000)])
        seed.close()
        WRITE = ("import realmdb, time\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    with w.write():\\n"
                 "        item = w.object_for_primary_key('Item', (i * 613) % 5000)\\n"
                 "        if i % 4 == 0:\\n"
                 "            item.n = (i * 37) % 100\\n"
                 "        elif i % 4 == 1:\\n"
                 "            w.delete(item)\\n"
                 "        elif i % 4 == 2:\\n"
                 "            w.create('Item', {{'id': 10000 + i, 'n': (i * 11) % 100, 'tag': 'new'}})\\n"
                 "        else:\\n"
                 "            item.tag = 'written'\\n"
                 "    time.sleep(0.003)\\n"
                 "with w.write():\\n"
                 "    w.create('Item', {{'id': 99999, 'n': -1, 'tag': 'last'}})\\n"
                 "w.close()\\n")
{RUN_WRITER}
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            sections = r.objects("Item").sectioned("n")
            done = asyncio.Event()
            seen = {{"sections": None, "wrong": 0, "calls": 0, "modified": 0}}
            def read(sectioned):
                return [(s.key, [o.id for o in s]) for s in sectioned]   # back into the library
            def on_change(sectioned, changes):
                seen["calls"] += 1
                now = read(sectioned)
                if not changes.initial:
                    old = [list(ids) for _, ids in seen["sections"]]
                    for s, i in sorted(changes.deletions, reverse=True):
                        del old[s][i]
                    for s in sorted(changes.sections_deleted, reverse=True):
                        del old[s]
                    for s in sorted(changes.sections_inserted):
                        old.insert(s, list(now[s][1]))
                    for s, i in sorted(changes.insertions):
                        old[s].insert(i, now[s][1][i])
                    if old != [ids for _, ids in now]:
                        seen["wrong"] += 1
                    seen["modified"] += sum(1 for s, i in changes.modifications if sectioned[s][i].tag == "written")
                seen["sections"] = now
                if now and now[0][0] == -1:
                    done.set()
            token = sections.observe(on_change)
            await run_writer({writer!r}, WRITE, done, 60)
            token.invalidate()
            r.close()
            print(json.dumps({{k: seen[k] for k in ("wrong", "calls", "modified")}}))
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["wrong"] == 0 and seen["calls"] >= 2
    assert seen["modified"] >= 1


@pytest.mark.parametrize("writer", ["thread", "process"])
def test_a_dictionary_of_objects_reports_its_keys_through_the_loop(run_python, tmp_realm_path, writer):
    """A dictionary of objects (``Dog?{}``) observed on the loop while another thread or process
    adds and removes keys, points keys at other dogs or at None, renames dogs and deletes them:
    each changeset's indices are those of the keys in order, as the dictionary iterates, and its
    modifications are exactly the keys whose dog was replaced or changed."""
    schema = [
        {"name": "Person", "primary_key": "name", "properties": {"name": "string", "pets": "Dog?{}"}},
        {"name": "Dog", "primary_key": "id", "properties": {"id": "int", "name": "string"}},
    ]
    commits = 90
    result = run_python(f"""
        import asyncio, json, subprocess, sys, threading, time, realmdb
        PATH, SCHEMA, COMMITS = {tmp_realm_path!r}, {schema!r}, {commits}
        seed = realmdb.open(PATH, SCHEMA)
        with seed.write():
            ann = seed.create("Person", {{"name": "Ann"}})
            for i in range(20):
                ann.pets[f"k{{i:02}}"] = seed.create("Dog", {{"id": i, "name": f"dog{{i}}"}}) if i % 4 else None
        seed.close()
        WRITE = ("import realmdb, time\\n"
                 f"w = realmdb.open({{PATH!r}}, {{SCHEMA!r}})\\n"
                 "pets = w.object_for_primary_key('Person', 'Ann').pets\\n"
                 f"for i in range({{COMMITS}}):\\n"
                 "    key = f'k{{(i * 7) % 30:02}}'\\n"
                 "    with w.write():\\n"
                 "        step = i % 5\\n"
                 "        if step == 0:\\n"
                 "            pets[key] = w.create('Dog', {{'id': 1000 + i, 'name': f'new{{i}}'}})\\n"
                 "        elif step == 1:\\n"
                 "            pets.pop(key, None)\\n"
                 "        elif step == 2:\\n"
                 "            pets[key] = None\\n"
                 "        elif step == 3:\\n"
                 "            held = [d for d in pets.values() if d is not None]\\n"
                 "            if held: held[i % len(held)].name = f'renamed{{i}}'\\n"
                 "        else:\\n"
                 "            held = [d for d in pets.values() if d is not None]\\n"
                 "            if held: w.delete(held[i % len(held)])\\n"
                 "    time.sleep(0.003)\\n"
                 "with w.write():\\n"
                 "    pets['zz'] = None\\n"
                 "w.close()\\n")
{RUN_WRITER}
        async def main():
            r = realmdb.open(PATH, SCHEMA)
            r.attach_loop()
            pets = r.object_for_primary_key("Person", "Ann").pets
            done = asyncio.Event()
            seen = {{"state": None, "wrong": [], "calls": 0, "modified": 0}}
            def on_change(dictionary, changes):
                seen["calls"] += 1
                state = [(k, None if d is None else (d.id, d.name)) for k, d in dictionary.items()]  # back into the library
                if not changes.initial:
                    old = seen["state"]
                    keys = [k for i, (k, _) in enumerate(old) if i not in set(changes.deletions)]
                    for index in sorted(changes.insertions):
                        keys.insert(index, state[index][0])
                    before = dict(old)
                    expected = [i for i, (k, v) in enumerate(state) if k in before and i not in changes.insertions and before[k] != v]
                    if keys != [k for k, _ in state] or sorted(changes.modifications_new) != expected:
                        seen["wrong"].append([old, state, changes.deletions, changes.insertions, changes.modifications_new])
                    seen["modified"] += len(expected)
                seen["state"] = state
                if "zz" in dictionary:
                    done.set()
            token = pets.observe(on_change)
            await run_writer({writer!r}, WRITE, done, 60)
            token.invalidate()
            r.close()
            print(json.dumps({{"wrong": seen["wrong"][:2], "calls": seen["calls"], "modified": seen["modified"]}}))
        asyncio.run(main())
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["wrong"] == [] and seen["calls"] >= 2 and seen["modified"] > 0
