"""``python -m realmdb``: the ``realmdb`` command (:mod:`realmdb.cli`), for when the installed
script is not on PATH."""
import sys

from .cli import main

sys.exit(main())
