"""Replays the Python API fuzzer's inputs: every file of tests/fuzz/corpus/python_api/ (seeds) and
of tests/fuzz/crashes/python_api/ (minimized inputs of findings) goes through the harness's
one-input function, ``TestOneInput`` of tests/fuzz/fuzz_python_api.py, so that a crash found once
stays a test.

No fuzzing loop and no atheris needed: without atheris the harness reads the bytes through
tests/fuzz/fdp.py, which consumes them exactly as atheris's FuzzedDataProvider does (checked by
``test_stand_in_provider_matches_atheris`` where atheris is installed).

Each input runs in a child process: an input that crashes the library (a Swift trap, a signal)
fails its test instead of ending the test run. A crash file named after a finding still open
(``IDENT.bin`` or ``IDENT-*.bin``, IDENT in ``KNOWN`` of tests/fuzz/known_findings.py) is expected
to fail (strict xfail): once it is fixed the test reports XPASS, and the finding is taken out of
``KNOWN`` so that the input guards the fix.
"""
from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pytest

import realmdb

ROOT = Path(__file__).resolve().parents[3]
FUZZ_DIR = ROOT / "tests" / "fuzz"
CORPUS = FUZZ_DIR / "corpus" / "python_api"
CRASHES = FUZZ_DIR / "crashes" / "python_api"


def child_env() -> dict:
    """The environment of a replay: this package and this library (as conftest.child_env)."""
    env = dict(os.environ)
    python_root = str(ROOT / "bindings" / "python")
    env["PYTHONPATH"] = os.pathsep.join([python_root, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["REALMDB_LIBRARY"] = realmdb.LIBRARY_PATH
    return env


REPLAY = """
import sys
sys.path.insert(0, sys.argv[1])
import fuzz_python_api as harness
with open(sys.argv[2], "rb") as f:
    data = f.read()
harness.TestOneInput(data)
harness.reset_state()
print("replayed", len(data), "bytes")
"""


def _load(name: str) -> Any:
    """A module of tests/fuzz, loaded without touching sys.path."""
    spec = importlib.util.spec_from_file_location(f"_fuzz_{name}", FUZZ_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _files(folder: Path) -> List[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".") and p.suffix != ".md")


def _open_findings() -> dict:
    return {k.ident: k.summary for k in _load("known_findings").KNOWN}


def _crash_params() -> List[Any]:
    open_findings = _open_findings()
    params = []
    for path in _files(CRASHES):
        ident = next((i for i in open_findings if path.stem == i or path.stem.startswith(i + "-")), None)
        marks = []
        if ident is not None:
            marks.append(pytest.mark.xfail(strict=True, reason=f"open finding {ident}: {open_findings[ident]}"))
        params.append(pytest.param(path, id=path.name, marks=marks))
    return params


def replay(path: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = child_env()
    env.pop("REALMDB_FUZZ_KNOWN", None)  # known findings fail as found
    env["REALMDB_FUZZ_TMP"] = str(tmp_path)
    env["SWIFT_BACKTRACE"] = "enable=no"
    return subprocess.run([sys.executable, "-c", REPLAY, str(FUZZ_DIR), str(path)], env=env,
                          capture_output=True, text=True, timeout=120)


def _check(result: subprocess.CompletedProcess, path: Path) -> None:
    if result.returncode != 0:
        how = f"signal {-result.returncode}" if result.returncode < 0 else f"exit status {result.returncode}"
        pytest.fail(f"{path.relative_to(ROOT)} failed ({how}):\n{result.stderr[-4000:]}", pytrace=False)


def test_corpus_is_there() -> None:
    assert _files(CORPUS), f"no seed inputs in {CORPUS}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in _files(CORPUS)])
def test_corpus_input(path: Path, tmp_path: Path) -> None:
    _check(replay(path, tmp_path), path)


@pytest.mark.parametrize("path", _crash_params())
def test_crash_input(path: Path, tmp_path: Path) -> None:
    _check(replay(path, tmp_path), path)


def test_stand_in_provider_matches_atheris() -> None:
    """fdp.FuzzedDataProvider makes the same choices as atheris's from the same bytes."""
    atheris = pytest.importorskip("atheris")
    fdp = _load("fdp")
    rng = random.Random(20240601)
    calls = [("ConsumeBytes", lambda: (rng.randrange(6),)), ("ConsumeInt", lambda: (rng.randrange(12),)),
             ("ConsumeIntInRange", lambda: (rng.choice([0, -5, -2**63]), rng.choice([7, 255, 256, 2**64 - 1, 2**70]))),
             ("ConsumeBool", lambda: ()), ("ConsumeUnicode", lambda: (rng.randrange(8),)),
             ("ConsumeFloat", lambda: ()), ("ConsumeProbability", lambda: ()),
             ("PickValueInList", lambda: (list(range(1 + rng.randrange(300))),))]
    for _ in range(3000):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        a, b = atheris.FuzzedDataProvider(data), fdp.FuzzedDataProvider(data)
        for _ in range(10):
            name, make_args = rng.choice(calls)
            args = make_args()
            x, y = getattr(a, name)(*args), getattr(b, name)(*args)
            assert repr(x) == repr(y), (data, name, args, x, y)
            assert a.remaining_bytes() == b.remaining_bytes()


def test_harness_runs_without_atheris(tmp_path: Path) -> None:
    """TestOneInput runs where atheris is not installed (the stand-in provider is used)."""
    seeds = _files(CORPUS)
    if not seeds:
        pytest.skip("no seed inputs")
    code = ("import sys; sys.modules['atheris'] = None; sys.path.insert(0, sys.argv[1]); "
            "import fuzz_python_api as h; assert h.atheris is None; "
            "[h.TestOneInput(open(p, 'rb').read()) for p in sys.argv[2:]]; h.reset_state(); print('ok')")
    env = child_env()
    env["REALMDB_FUZZ_TMP"] = str(tmp_path)
    env.pop("REALMDB_FUZZ_KNOWN", None)
    result = subprocess.run([sys.executable, "-c", code, str(FUZZ_DIR), *map(str, seeds)], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "ok" in result.stdout
