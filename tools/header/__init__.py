"""The parts of tools/generate_header.py, which writes include/db.h.

errors.py        GeneratorError, what every step raises when it cannot go on
swift_header.py  reading the C declarations out of the CAPI-Swift.h SwiftPM generates
doc_comments.py  turning Swift's doc comments into Doxygen blocks
sections.py      the header's sections (one per file of Sources/CAPI) and their lifecycle order
lint.py          the documentation rules checked before anything is written
render.py        assembling db.h from the types and the ordered declarations
"""
