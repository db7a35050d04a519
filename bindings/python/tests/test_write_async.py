"""``async with realm.write_async():`` as a program on an asyncio loop writes: the loop keeps
running while another thread or process holds the file, tasks take turns, errors and
cancellation give the turn back. Each scenario runs in a child process with a time limit: a loop
that blocks cannot time itself out, and a turn that is never given back hangs the next writer."""
from __future__ import annotations

import pytest

SCHEMA = [{"name": "Item", "primary_key": "id", "properties": {"id": "int", "n": "int"}}]

#: Child-side code: ``holder = await hold_the_file(kind, path)`` starts a writer in another thread
#: or process that begins a write, creates Item 1 and holds the file until ``await holder.commit()``.
HOLDER = """
import asyncio, sys, threading, realmdb

HOLD = ("import sys, realmdb\\n"
        "r = realmdb.open(sys.argv[1], %r)\\n"
        "r.begin_write()\\n"
        "r.create('Item', {'id': 1, 'n': 1})\\n"
        "print('holding', flush=True)\\n"
        "sys.stdin.readline()\\n"
        "r.commit()\\n"
        "r.close()\\n")

class Holder:
    async def start(self, kind, path):
        self.kind = kind
        if kind == "process":
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-c", HOLD, path, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert (await self.proc.stdout.readline()) == b"holding\\n"
        else:
            self.holding, self.go = threading.Event(), threading.Event()
            def hold():
                r = realmdb.open(path, %r)
                r.begin_write()
                r.create('Item', {'id': 1, 'n': 1})
                self.holding.set()
                self.go.wait()
                r.commit()
                r.close()
            self.thread = threading.Thread(target=hold)
            self.thread.start()
            await asyncio.get_running_loop().run_in_executor(None, self.holding.wait)
        return self

    async def commit(self):
        if self.kind == "process":
            self.proc.stdin.write(b"go\\n")
            await self.proc.stdin.drain()
            assert await self.proc.wait() == 0
        else:
            self.go.set()
            await asyncio.get_running_loop().run_in_executor(None, self.thread.join)
""" % (SCHEMA, SCHEMA)


def run_scenario(run_python, body: str, *args: str) -> str:
    result = run_python(HOLDER + body, *args, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_the_loop_runs_while_another_writer_holds_the_file(run_python, tmp_realm_path, kind):
    out = run_scenario(run_python, f"""
PATH, KIND = {tmp_realm_path!r}, {kind!r}

async def main():
    r = realmdb.open(PATH, {SCHEMA!r})
    r.attach_loop()
    seen = []
    token = r.objects("Item").observe(lambda res, c: seen.append(sorted(i.id for i in res)))  # reads back
    ticks = 0
    async def ticker():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1
    tick_task = asyncio.create_task(ticker())
    holder = await Holder().start(KIND, PATH)

    async def write_two():
        async with r.write_async():
            first = r.object_for_primary_key("Item", 1)  # the write starts from the latest version
            r.create("Item", {{"id": 2, "n": first.n + 1}})

    writing = asyncio.create_task(write_two())
    before = ticks
    await asyncio.sleep(0.3)
    waited_ticks = ticks - before
    assert not writing.done(), "the write waits for the holder"
    assert waited_ticks >= 10, waited_ticks  # the loop ran meanwhile (blocked, it would be 0)
    await holder.commit()
    await asyncio.wait_for(writing, 20)
    await asyncio.sleep(0.05)
    tick_task.cancel()
    token.invalidate()
    print(sorted((i.id, i.n) for i in r.objects("Item")), seen[-1])
    r.close()

asyncio.run(main())
""")
    assert out.strip() == "[(1, 1), (2, 2)] [1, 2]"


def test_tasks_take_turns_errors_cancel_and_callbacks_write(run_python, tmp_realm_path):
    out = run_scenario(run_python, f"""
async def main():
    r = realmdb.open({tmp_realm_path!r}, {SCHEMA!r})
    r.attach_loop()
    followed = asyncio.Event()

    async def follow_up():  # started from a notification callback
        async with r.write_async():
            r.create("Item", {{"id": 1000, "n": len(r.objects("Item"))}})
        followed.set()

    def on_change(results, changes):
        if not changes.initial and results.filter("id == 7").count() == 1 and not followed.is_set():
            asyncio.get_running_loop().create_task(follow_up())
    token = r.objects("Item").observe(on_change)

    async def add(i):
        async with r.write_async():
            r.create("Item", {{"id": i, "n": 0}})
            await asyncio.sleep(0)  # other tasks run; their writes wait for this one
            r.object_for_primary_key("Item", i).n = i

    await asyncio.gather(*(add(i) for i in range(20)))
    try:
        async with r.write_async():
            r.create("Item", {{"id": 500, "n": 0}})
            raise KeyError("boom")
    except KeyError:
        pass
    await asyncio.wait_for(followed.wait(), 10)
    with r.write():  # nothing left reserved: a plain write begins at once
        r.create("Item", {{"id": 501, "n": 0}})
    items = {{i.id: i.n for i in r.objects("Item")}}
    assert all(items[i] == i for i in range(20)), items
    assert 500 not in items and items[1000] >= 8 and 501 in items
    token.invalidate()
    r.close()
    print(len(items))

asyncio.run(main())
""")
    assert out.strip() == "22"


@pytest.mark.parametrize("kind", ["thread", "process"])
def test_cancelling_a_waiting_task_gives_the_turn_back(run_python, tmp_realm_path, kind):
    out = run_scenario(run_python, f"""
PATH, KIND = {tmp_realm_path!r}, {kind!r}

async def main():
    r = realmdb.open(PATH, {SCHEMA!r})
    holder = await Holder().start(KIND, PATH)
    async def write():
        async with r.write_async():
            r.create("Item", {{"id": 2, "n": 2}})
    waiting = asyncio.create_task(write())
    await asyncio.sleep(0.1)
    waiting.cancel()
    try:
        await waiting
    except asyncio.CancelledError:
        pass
    await holder.commit()
    await asyncio.sleep(0.1)  # the worker gets the turn, sees the task gone and gives it back
    # Another process, then this realm, write without waiting for the cancelled task.
    code = "import sys, realmdb\\nw = realmdb.open(sys.argv[1])\\nwith w.write(): w.create('Item', {{'id': 3, 'n': 3}})\\n"
    done = await asyncio.create_subprocess_exec(sys.executable, "-c", code, PATH)
    assert await asyncio.wait_for(done.wait(), 20) == 0
    async with r.write_async():
        r.create("Item", {{"id": 4, "n": 4}})
    r.refresh()
    print(sorted(i.id for i in r.objects("Item")))
    r.close()

asyncio.run(main())
""")
    assert out.strip() == "[1, 3, 4]"


def test_what_cannot_write_fails_clearly(run_python, tmp_realm_path):
    out = run_scenario(run_python, f"""
PATH = {tmp_realm_path!r}

async def attempt(realm):
    try:
        async with realm.write_async():
            realm.create("Item", {{"id": 9, "n": 9}})
    except realmdb.RealmError as error:
        return type(error).__name__
    return "wrote"

async def main():
    r = realmdb.open(PATH, {SCHEMA!r})
    frozen = r.freeze()
    read_only = realmdb.open(PATH, read_only=True)
    print(await attempt(frozen), await attempt(read_only))
    read_only.close()
    async with r.write_async():
        print(await attempt(r))  # the same task, inside its block: an error, not a wait for itself
    # Closing the realm while a task waits for its turn ends the wait with ClosedRealmError.
    holder = await Holder().start("process", PATH)
    waiting = asyncio.create_task(attempt(r))
    await asyncio.sleep(0.1)
    r.close()
    print(await asyncio.wait_for(waiting, 10))
    await holder.commit()
    print(await attempt(r))

asyncio.run(main())
""")
    assert out.split() == ["LogicError", "ReadOnlyError", "WrongTransactionStateError", "ClosedRealmError",
                           "ClosedRealmError"]


def test_a_writer_killed_while_holding_the_file_does_not_hold_up_the_next(run_python, tmp_realm_path):
    """The turn across processes is a record lock the kernel drops when its process dies: a
    writer killed inside its write (and one killed holding a reservation) blocks no one."""
    out = run_scenario(run_python, f"""
import signal
PATH = {tmp_realm_path!r}
RESERVE = ("import asyncio, sys, realmdb\\n"
           "async def main():\\n"
           "    r = realmdb.open(sys.argv[1])\\n"
           "    await realmdb._write_turn.reserve_write(r)\\n"
           "    print('reserved', flush=True)\\n"
           "    await asyncio.sleep(60)\\n"
           "asyncio.run(main())\\n")

async def main():
    r = realmdb.open(PATH, {SCHEMA!r})
    for code in (HOLD, RESERVE):
        child = await asyncio.create_subprocess_exec(sys.executable, "-c", code, PATH,
                                                     stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert (await child.stdout.readline()) in (b"holding\\n", b"reserved\\n")
        child.send_signal(signal.SIGKILL)
        assert await child.wait() == -signal.SIGKILL
        async with r.write_async():
            r.create("Item", {{"id": len(r.objects("Item")) + 10, "n": 0}})
    print(sorted(i.id for i in r.objects("Item")))
    r.close()

asyncio.run(main())
""")
    assert out.strip() == "[10, 11]"
