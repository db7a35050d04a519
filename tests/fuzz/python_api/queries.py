"""Query strings for ``filter``: grammar-built predicates, token soup and raw fuzz text, and their arguments."""
from __future__ import annotations

from typing import Any, List

from python_api.context import Ctx
from python_api.schema import PROPS, SCALARS

Q_PATHS = (["pk", "any", "link", "link.name", "link.score", "link.next.name", "link.next.next.id", "emb.text",
            "emb.num", "emb.inner.id", "idx_s", "idx_i", "targets.score", "targets.name", "targets.@count",
            "targets.@avg.score", "targets.@min.id", "targets.@sum.id", "targets[FIRST].name", "targets[LAST].id",
            "targets[0].score", "targets[-1].id", "ints.@sum", "ints.@avg", "ints.@max", "ints[FIRST]", "ints[1]",
            "ostrs", "dbls.@min", "dates.@max", "mixeds", "mixeds.@type", "tags", "tags.@count", "onums",
            "meta['k']", "meta[\"a\"]", "meta.@keys", "meta.@values", "meta.@size", "onum_map.@sum", "mixed_map['k']",
            "target_map['k'].name", "target_map.@values.id", "emb_map['k'].num", "emb_list.num", "emb_list.@count",
            "any.@type", "@links.@count", "@links.Holder.targets.pk", "target_set.name", "mixed_set",
            "holders.pk", "holders.@count", "nope", "link.nope", "@links.Nope.x.y"]
           + [f"r_{t}" for t in SCALARS] + [f"o_{t}" for t in SCALARS])
Q_OPS = ["==", "!=", "<", "<=", ">", ">=", "=", "<>", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "BEGINSWITH[c]",
         "CONTAINS[cd]", "LIKE[c]", "==[c]", "!=[cd]", "ENDSWITH[d]", "IN", "BETWEEN", "TEXT", "=~"]
Q_LITERALS = ["0", "1", "-1", "1.5", "-0.0", "1e308", "1e999", "NaN", "inf", "-inf", "9223372036854775807",
              "9223372036854775808", "-9223372036854775809", "0x7f", "'a'", "'k'", '"é"', "''", "'a*'", "'?'",
              "'\\''", "'\\u0000'", "nil", "null", "NULL", "true", "false", "TRUE", "B64\"AAE=\"", "B64\"!\"",
              "T2024-01-01@12:00:00", "T1:0", "T-1:-1", "T2024-02-30@25:61:61", "oid(000000000000000000000000)",
              "oid(zz)", "uuid(00000000-0000-0000-0000-000000000000)", "uuid(x)", "decimal128(1.5)",
              "decimal128(NaN)", "decimal128(1E+99999)", "{}", "{1, 2, 'a'}", "{nil}", "{1, {2}}", "{1, 2}",
              "$0", "$1", "$2", "$3", "$99", "$-1", "$18446744073709551616", "'numeric'", "'string'", "'object'"]
Q_TOKENS = (["AND", "OR", "NOT", "&&", "||", "!", "(", ")", "TRUEPREDICATE", "FALSEPREDICATE", "ANY", "ALL", "NONE",
             "SOME", "SUBQUERY(targets, $x, $x.score > 0).@count", "SUBQUERY(targets, $x,", "$x.id", "$x",
             ").@count", "SORT(", "DISTINCT(", "LIMIT(", "ASC", "DESC", "ASCENDING", ",", "{", "}", "[", "]",
             ".", "@count", "@size", "@avg", "@links", "+", "-", "*", "/", "%", "'", '"', "\\", "@", "#", "[c]"]
            + Q_OPS + Q_LITERALS + Q_PATHS)


def gen_predicate(c: Ctx, depth: int = 0) -> str:
    k = c.n(9 if depth < 4 else 3)
    if k <= 3:
        path = c.pick(Q_PATHS) if c.flag() else c.pick(PROPS["Holder"])
        if c.n(5) == 0:
            path = c.pick(["ANY ", "ALL ", "NONE ", "SOME "]) + path
        op = c.pick(Q_OPS)
        rhs = c.pick(Q_LITERALS)
        if op == "BETWEEN":
            rhs = "{" + c.pick(Q_LITERALS) + ", " + c.pick(Q_LITERALS) + "}"
        if c.n(4) == 0:
            return f"{rhs} {op} {path}"
        if c.n(6) == 0:
            return f"{path} {c.pick(['+', '-', '*', '/'])} {c.pick(Q_LITERALS)} {op} {rhs}"
        return f"{path} {op} {rhs}"
    if k == 4:
        return c.pick(["TRUEPREDICATE", "FALSEPREDICATE"])
    if k == 5:
        return f"NOT {gen_predicate(c, depth + 1)}"
    if k == 6:
        return f"({gen_predicate(c, depth + 1)})"
    if k == 7:
        return f"{gen_predicate(c, depth + 1)} AND {gen_predicate(c, depth + 1)}"
    if k == 8:
        return f"{gen_predicate(c, depth + 1)} OR {gen_predicate(c, depth + 1)}"
    return (f"SUBQUERY({c.pick(['targets', 'emb_list', 'target_set', 'target_map', 'holders', 'link', 'ints'])}, "
            f"$x, $x.{c.pick(['id', 'score', 'name', 'num', 'nope'])} {c.pick(Q_OPS)} {c.pick(Q_LITERALS)})"
            f".@count {c.pick(Q_OPS)} {c.pick(Q_LITERALS)}")


def gen_query(c: Ctx) -> str:
    """A query: grammar-built, token soup, raw fuzz text, or a mix."""
    mode = c.n(5)
    if mode == 0:
        return c.text(40)
    if mode == 1:
        return " ".join(c.pick(Q_TOKENS) if c.n(4) else c.text(4) for _ in range(c.n(12)))
    q = gen_predicate(c)
    if c.n(3) == 0:
        suffix = c.pick([" SORT(pk ASC)", " SORT(link.name DESC, pk ASC)", " DISTINCT(r_int)", " LIMIT(2)",
                         " LIMIT(0)", " LIMIT(-1)", " LIMIT(18446744073709551616)", " SORT(targets.id ASC)",
                         " DISTINCT(link.name) LIMIT(1)", " SORT(nope ASC)", " SORT(", " LIMIT(1) SORT(pk DESC)"])
        q += suffix
    if mode == 4 and q:
        # Splice raw fuzz text into a grammatical query.
        at = c.n(len(q))
        q = q[:at] + c.text(6) + q[at + c.n(3):]
    if c.n(30) == 0:
        depth = c.n(130)
        q = c.pick(["(" * depth + q + ")" * depth, "NOT " * depth + q, " AND ".join([q] * max(depth, 1))])
    return q


def gen_args(c: Ctx) -> List[Any]:
    args = []
    for _ in range(c.n(3)):
        args.append(c.value() if c.n(3) else [c.value(1) for _ in range(c.n(3))])
    return args
