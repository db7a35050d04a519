"""The reference site that tools/build_docs.py writes: one module per kind of page (the C API
from include/db.h, the Python API from the binding's docstrings, the guides from Markdown) and the
HTML they share (page.py)."""
