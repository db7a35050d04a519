"""The parts of the Python API fuzzer, tests/fuzz/fuzz_python_api.py (its docstring describes it).

policy.py           what counts as a finding: expected errors, known findings, attempt(), tracing
schema.py           the fuzzed realm's schema and each property's kind
values.py           edge values and hostile types
context.py          Ctx: one input's bytes, choices, values and what it made
roundtrip.py        what reading a written value back must give
state.py            the realm reused across inputs and the objects each input starts with
queries.py          query strings and arguments for filter
ops_objects.py      operations on objects
ops_collections.py  operations on lists, sets and dictionaries
ops_results.py      operations on results
ops_realm.py        operations on the realm: transactions, freeze, observe, refresh, close
operations.py       OPS, the table the input's bytes choose from, and the write block
invariants.py       invariants checked on results and on the whole realm
"""
