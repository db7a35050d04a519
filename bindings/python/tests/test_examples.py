"""The demo (examples/demo.py) as a user runs it: it prints the people it upserted and a live query
following the commits of another process through the event loop, and a second run prints the same."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import child_env

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo.py"

LIVE_QUERY = """\
  live query (city == 'London', by name): Ada Lovelace
  another process commits: Charles Babbage moves in
    now Ada Lovelace, Charles Babbage  (inserted 1, deleted 0, modified 0)
  another process commits: Alan Turing moves to London
    now Ada Lovelace, Alan Turing, Charles Babbage  (inserted 1, deleted 0, modified 0)
  another process commits: Charles Babbage leaves
    now Ada Lovelace, Alan Turing  (inserted 0, deleted 1, modified 0)
  another process commits: Alan Turing goes back to Manchester
    now Ada Lovelace  (inserted 0, deleted 1, modified 0)
"""


def run_demo(path: Path) -> str:
    # A copy, run from elsewhere: the package comes from child_env (this checkout's, or the
    # installed one with REALMDB_TEST_INSTALLED=1), not from the demo's own folder.
    demo = path.parent / "demo.py"
    demo.write_text(DEMO.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, str(demo), str(path)], env=child_env(), capture_output=True,
                          text=True, timeout=120, cwd=path.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_demo_shows_a_query_that_updates_itself_and_runs_again_the_same(tmp_path):
    first = run_demo(tmp_path / "people.realm")
    assert "3 people\n" in first and "  #4: (none)\n" in first
    assert first.endswith(LIVE_QUERY)
    assert run_demo(tmp_path / "people.realm") == first
