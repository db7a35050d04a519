"""What the Results tests (test_results*.py) share besides conftest's fixtures: the ten people
of the ``people`` fixture, and ``ids``."""
from __future__ import annotations

from typing import Optional

#: How many people the ``people`` fixture creates: ids 0 .. N-1.
N = 10


def age_of(i: int) -> Optional[int]:
    """The age of person ``i`` in ``people``: 20, None, 22, 23, None, 25, ... (every third id
    from 1 has no age)."""
    return None if i % 3 == 1 else 20 + i


def ids(results) -> list:
    """The ids of ``results``' objects, in order."""
    return results.values("id")
