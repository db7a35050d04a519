"""The operations an input's bytes choose from (OPS, by position), and the write block that nests them."""
from __future__ import annotations

from typing import Callable, List, Tuple

from python_api.context import Ctx
from python_api.ops_collections import op_dict, op_list, op_set
from python_api.ops_objects import (op_create_many, op_create_random, op_create_valid, op_delete, op_get_attr,
                                    op_misc_object, op_object_for_primary_key, op_set_attr)
from python_api.ops_realm import op_begin, op_cancel, op_close, op_commit, op_freeze, op_observe, op_refresh
from python_api.ops_results import op_derive, op_filter, op_objects, op_results_read, op_results_write
from python_api.policy import EXPECTED, SKIP, counts_as_finding, trace


def op_write_block(c: Ctx) -> None:
    """``with realm.write():`` around a few operations, sometimes raising out of it."""
    trace("write block")
    boom = c.n(4) == 0
    try:
        with c.realm.write():
            for _ in range(c.n(3)):
                run_op(c, c.n(_NESTED_OK - 1))
            if boom:
                raise KeyError("leave the write block (fuzz)")
    except EXPECTED as exc:
        if counts_as_finding(exc):
            raise


#: (name for REALMDB_FUZZ_SKIP, operation); the input's bytes pick by position, so the order is
#: part of every saved input: append, never reorder.
OPS: List[Tuple[str, Callable[[Ctx], None]]] = [
    ("begin", op_begin), ("commit", op_commit), ("cancel", op_cancel),
    ("create_valid", op_create_valid), ("create_valid", op_create_valid), ("create_random", op_create_random),
    ("create_many", op_create_many), ("delete", op_delete), ("set_attr", op_set_attr),
    ("set_attr", op_set_attr), ("get_attr", op_get_attr), ("object_misc", op_misc_object),
    ("list", op_list), ("list", op_list), ("set", op_set), ("dict", op_dict), ("filter", op_filter),
    ("filter", op_filter), ("objects", op_objects), ("derive", op_derive), ("results_read", op_results_read),
    ("results_write", op_results_write), ("primary_key", op_object_for_primary_key), ("freeze", op_freeze),
    ("observe", op_observe), ("refresh", op_refresh), ("close", op_close),
]
#: Operations a write block may nest (not another write block: bounded recursion).
_NESTED_OK = len(OPS)
OPS.append(("write_block", op_write_block))


def run_op(c: Ctx, index: int) -> None:
    name, operation = OPS[index]
    if name in SKIP:
        return
    operation(c)
