"""Random objects and random queries for the differential test (test support).

:func:`gen_rows` makes objects with every scalar kind the query language treats differently
(optional and required, indexed and not, NaN, -0.0, huge ints, empty/accented/decomposed/long
strings, dates); :class:`Generator` makes query trees (see query_reference.py) and renders them as
query text with ``$n`` arguments, random keyword spellings and optional SORT/DISTINCT/LIMIT.
Everything is driven by the ``random.Random`` passed in, so a seed reproduces a run.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Dict, List, Sequence, Tuple

import query_reference as ref
from query_reference import INT64_MAX, INT64_MIN, NAN, TS, f32

SCHEMA = [{
    "name": "Row",
    "primary_key": "pk",
    "properties": {
        "pk": "int",
        "oi": {"type": "int?", "indexed": True},
        "i": "int",
        "od": "double?",
        "f": "float",
        "os": {"type": "string?", "indexed": True},
        "s": "string",
        "b": "bool",
        "dt": {"type": "date?", "indexed": True},
    },
    "indexes": [["oi", "os"], ["os", "dt"], ["dt", "oi", "os"], ["b", "i"]],
}]
#: Sorts an index can serve (all keys one direction): compound indexes and indexed properties.
INDEXED_SORTS = SCHEMA[0]["indexes"] + [["oi"], ["os"], ["dt"], ["pk"]]
NAMES = ["pk", "oi", "i", "od", "f", "os", "s", "b", "dt"]
TYPES = {"pk": "int", "oi": "int", "i": "int", "od": "double", "f": "float", "os": "string", "s": "string",
         "b": "bool", "dt": "date"}
NUMERIC = ["pk", "oi", "i", "od", "f"]
INTS = ["pk", "oi", "i"]
STRINGS = ["os", "s"]
#: The operator with its operands swapped: `a < b` is `b > a`.
MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)

# --------------------------------------------------------------------------- data

BIG_INTS = [INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 2**53 + 1, -(2**53) - 1, 2**62, -(2**62), 2**32]
WORDS = ["apple", "Apple", "APPLE", "école", "École", "ecole", "ÉCOLE", "e\u0301cole", "E\u0301COLE", "straße",
         "STRASSE", "strasse", "naïve", "naive", "café", "cafe\u0301", "CAFÉ", "résumé", "resume", "über", "Über",
         "uber", "niño", "NIÑO", "façade", "FAÇADE", "a*b", "a?b", "it's", 'say "hi"', "back\\slash", "日本",
         "😀x", "ab", "abc", "abd", "b", "B", "Ab", "aB"]
PIECES = ["a", "b", "c", "A", "B", "e", "E", "é", "É", "e\u0301", "E\u0301", "è", "ß", "ss", "SS", "ü", "Ü", "ñ",
          "ç", "x", "X", " ", "*", "?", "'", '"', "\\", "日", "😀"]
ASCII_PIECES = [p for p in PIECES if p.isascii()]
# Long strings (> 500 bytes) sharing long prefixes: the index keeps only a prefix of them.
LONG_PREFIXES = ["L" + "a" * 510, "L" + "a" * 509 + "b", "L" + "A" * 510, "L" + "a" * 300 + "b" * 220]
DATE_BASE = dt.datetime(2024, 3, 1, 12, 0, 0, tzinfo=UTC)
DATE_CHOICES = [DATE_BASE + dt.timedelta(seconds=k * 3600, microseconds=m)
                for k in range(-5, 6) for m in (0, 1, 999_999)]
# Before 1970, where a literal's nanoseconds count away from the epoch (realm-core's reading).
DATE_CHOICES += [dt.datetime(1969, 12, 31, 23, 59, 59, m, tzinfo=UTC) for m in (0, 1, 500_000, 999_999)]
DATE_CHOICES += [dt.datetime(1950, 6, 1, 12, 0, s, m, tzinfo=UTC) for s in (0, 1) for m in (0, 250_000)]


def gen_int(rng: random.Random, spread: int = 20) -> int:
    if rng.random() < 0.04:
        return rng.choice(BIG_INTS)
    return rng.randint(-spread, spread)


def gen_double(rng: random.Random, single: bool = False) -> float:
    r = rng.random()
    if r < 0.05:
        return NAN
    if r < 0.10:
        return -0.0
    if r < 0.13:
        return 0.0
    if r < 0.15:
        return rng.choice([float("inf"), float("-inf")] + ([3.0e38, 1e-45] if single else [1e300, -1e-300, 5e-324]))
    if r < 0.45:
        v = float(rng.randint(-20, 20))
    elif r < 0.6:
        v = rng.randint(-40, 40) / 2
    else:
        v = round(rng.uniform(-100, 100), rng.choice([0, 1, 2, 6]))
    return f32(v) if single else v


def gen_string(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.07:
        return ""
    if r < 0.12:
        pieces = PIECES if rng.random() < 0.3 else ASCII_PIECES
        return rng.choice(LONG_PREFIXES) + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
    if r < 0.55:
        w = rng.choice(WORDS)
        if rng.random() < 0.3:
            w += "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
        return w
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


def gen_date(rng: random.Random) -> dt.datetime:
    if rng.random() < 0.6:
        return rng.choice(DATE_CHOICES)
    return DATE_BASE + dt.timedelta(seconds=rng.randint(-10**7, 10**7), microseconds=rng.randint(0, 999_999))


# Rows with the extremes, so that every run meets them (wrapping, INT64_MIN / -1, IEEE specials).
EDGE_ROWS = [
    {"oi": INT64_MIN, "i": INT64_MIN, "od": NAN, "f": float("inf"), "os": "", "s": "", "b": False, "dt": None},
    {"oi": INT64_MAX, "i": INT64_MAX, "od": float("-inf"), "f": -0.0, "os": None, "s": "x", "b": True,
     "dt": dt.datetime(1970, 1, 1, tzinfo=UTC)},
    {"oi": -1, "i": -22, "od": -0.0, "f": NAN, "os": "e\u0301", "s": "\u00e9", "b": True, "dt": DATE_BASE},
    {"oi": 0, "i": 22, "od": 0.0, "f": 3.0e38, "os": "\u00e9", "s": "E\u0301", "b": False, "dt": None},
    {"oi": 2**53 + 1, "i": -(2**53) - 1, "od": float(2**53), "f": 1e-45, "os": "*", "s": "?", "b": False,
     "dt": DATE_BASE + dt.timedelta(microseconds=1)},
]


def gen_rows(rng: random.Random, n: int) -> List[Dict[str, Any]]:
    rows = [{"pk": n + k, **edge} for k, edge in enumerate(EDGE_ROWS)]
    for pk in range(n):
        rows.append({
            "pk": pk,
            "oi": None if rng.random() < 0.15 else gen_int(rng),
            "i": gen_int(rng, 50),
            "od": None if rng.random() < 0.1 else gen_double(rng),
            "f": gen_double(rng, single=True),
            "os": None if rng.random() < 0.1 else gen_string(rng),
            "s": gen_string(rng),
            "b": rng.random() < 0.5,
            "dt": None if rng.random() < 0.15 else gen_date(rng),
        })
    rows.sort(key=lambda r: r["pk"])
    return rows


def reference_row(row: Dict[str, Any]) -> Dict[str, Any]:
    """The row as the reference sees it: float32 floats, dates as nanoseconds."""
    out = dict(row)
    out["f"] = f32(row["f"])
    out["dt"] = ref.ts_from_datetime(row["dt"])
    return out


# --------------------------------------------------------------------------- queries


class Query:
    """A generated query: its tree, text, arguments and results operations."""

    def __init__(self) -> None:
        self.args: List[Any] = []
        self.operations: List[tuple] = []   # applied by the reference, in order
        self.suffix = ""                      # the operations in the query text, or
        self.method_ops: List[tuple] = []     # the operations applied with Python methods
        self.tree: tuple = ("true",)
        self.text = ""

    def __repr__(self) -> str:
        return f"Query({self.text!r}, args={self.args!r}, method_ops={self.method_ops!r})"


class Generator:
    """Random query trees rendered to text, with the values (and rows) they are likely to hit."""

    def __init__(self, rng: random.Random, rows: Sequence[Dict[str, Any]]) -> None:
        self.rng = rng
        self.rows = rows

    # -- spelling

    def kw(self, *spellings: str) -> str:
        word = self.rng.choice(spellings)
        r = self.rng.random()
        if word.isalpha() and r < 0.2:
            return word.lower()
        if word.isalpha() and r < 0.25:
            return word.capitalize()
        return word

    def sample(self, name: str) -> Any:
        return self.rng.choice(self.rows)[name]

    # -- values as literals or arguments

    def constant(self, q: Query, value: Any, kind: str) -> Tuple[tuple, str]:
        """A constant operand: ("const", reference value) and its text ($n or a literal)."""
        rv = value
        if kind == "date" and value is not None and not isinstance(value, TS):
            rv = ref.ts_from_datetime(value)
        if self.rng.random() < 0.45 and not (kind == "date" and isinstance(value, TS) and value % 1000):
            arg = value
            if kind == "date" and isinstance(value, TS):
                arg = EPOCH + dt.timedelta(microseconds=int(value) // 1000)
            q.args.append(arg)
            return ("const", rv), f"${len(q.args) - 1}"
        return ("const", rv), self.literal(value, kind)

    def literal(self, value: Any, kind: str) -> str:
        rng = self.rng
        if value is None:
            return self.kw("null", "nil", "NULL")
        if isinstance(value, bool):
            return self.kw("true") if value else self.kw("false")
        if isinstance(value, int) and kind != "date":
            if rng.random() < 0.05 and value >= 0:
                return hex(value)
            return str(value)
        if isinstance(value, float):
            if value != value:
                return rng.choice(["nan", "NaN"])
            if value in (float("inf"), float("-inf")):
                return ("-" if value < 0 else "") + rng.choice(["inf", "infinity"])
            text = repr(value)
            if "." not in text and "e" not in text and "inf" not in text:
                text += ".0"
            return text
        if isinstance(value, str):
            quote = rng.choice(["'", '"'])
            body = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
            return quote + body + quote
        if kind == "date":
            ns = int(value) if isinstance(value, TS) else int(ref.ts_from_datetime(value))
            # Seconds and nanoseconds with one sign, both toward zero (-1.5 s is -1 s and -500000000 ns).
            sign = -1 if ns < 0 else 1
            seconds, nanos = sign * (abs(ns) // 1_000_000_000), sign * (abs(ns) % 1_000_000_000)
            if rng.random() < 0.5 or (ns < 0 and seconds == 0):
                return f"T{seconds}:{nanos}"
            # The date of the whole seconds; its nanoseconds field counts away from the epoch, so
            # before 1970 it is the magnitude of the nanoseconds.
            d = EPOCH + dt.timedelta(seconds=seconds)
            sep = rng.choice(["@", "T"])
            text = f"{d.year:04d}-{d.month:02d}-{d.day:02d}{sep}{d.hour:02d}:{d.minute:02d}:{d.second:02d}"
            return text + (f":{abs(nanos)}" if nanos or rng.random() < 0.3 else "")
        raise TypeError(value)

    # -- operands

    def value_for(self, kind: str) -> Any:
        """A value of a property kind, usually one present in the data."""
        rng = self.rng
        r = rng.random()
        if kind == "int":
            if r < 0.5:
                v = self.sample(rng.choice(INTS))
                return v if v is not None else rng.randint(-20, 20)
            if r < 0.6:
                return rng.choice(BIG_INTS)
            if r < 0.8:
                return gen_double(rng) if rng.random() < 0.5 else float(rng.randint(-20, 20))
            return rng.randint(-25, 25)
        if kind in ("double", "float"):
            if r < 0.5:
                v = self.sample(rng.choice(["od", "f"]))
                return v if v is not None else 0.5
            if r < 0.7:
                return rng.randint(-20, 20)
            return gen_double(rng)
        if kind == "string":
            if r < 0.6:
                v = self.sample(rng.choice(STRINGS))
                return v if v is not None else ""
            return gen_string(rng)
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "date":
            if r < 0.5:
                v = self.sample("dt")
                return v if v is not None else DATE_BASE
            if r < 0.7:
                return TS(int(ref.ts_from_datetime(gen_date(rng))) + rng.choice([0, 1, -1, 500]))
            return gen_date(rng)
        raise ValueError(kind)

    def numeric_expr(self, q: Query, depth: int = 0) -> Tuple[tuple, str, str]:
        """A numeric expression: (tree, text, "int" or "double")."""
        rng = self.rng
        r = rng.random()
        if depth < 2 and r < 0.35:
            op = rng.choice("+-*//")
            a, at, ak = self.numeric_expr(q, depth + 1)
            b, bt, bk = self.numeric_expr(q, depth + 1)
            kind = "int" if ak == bk == "int" else "double"
            return ("arith", op, a, b), f"({at} {op} {bt})" if rng.random() < 0.5 or depth else f"{at} {op} {bt}", kind
        if depth < 2 and r < 0.4:
            a, at, ak = self.numeric_expr(q, depth + 1)
            if at.startswith("-") or at[:1].isdigit():
                at = f"({at})"
            return ("neg", a), f"-{at}", ak
        if r < 0.75 or depth == 0:
            name = rng.choice(NUMERIC)
            return ("prop", name), name, "int" if name in INTS else "double"
        v = rng.randint(-5, 5) if rng.random() < 0.7 else rng.choice([0.5, -2.5, 0.0, 1e300, 3.0])
        if v == 0 and rng.random() < 0.5:
            v = 0
        tree, text = self.constant(q, v, "int")
        return tree, text, "int" if type(v) is int else "double"

    # -- predicates

    def predicate(self, q: Query, depth: int) -> Tuple[tuple, str, str]:
        """(tree, text, top): ``top`` is the text's top-level operator ("atom", "and", "or", "not")."""
        rng = self.rng
        r = rng.random()
        if depth > 0 and r < 0.3:
            kind = "and" if rng.random() < 0.5 else "or"
            a, at, atop = self.predicate(q, depth - 1)
            b, bt, btop = self.predicate(q, depth - 1)
            # AND binds tighter than OR: an OR inside an AND needs parentheses; others may have them.
            if (kind == "and" and atop == "or") or (atop != "atom" and rng.random() < 0.5):
                at = f"({at})"
            if (kind == "and" and btop == "or") or (btop != "atom" and rng.random() < 0.5) or rng.random() < 0.1:
                bt = f"({bt})"
            word = self.kw("AND", "&&") if kind == "and" else self.kw("OR", "||")
            return (kind, a, b), f"{at} {word} {bt}", kind
        if depth > 0 and r < 0.38:
            a, at, atop = self.predicate(q, depth - 1)
            if atop in ("and", "or") or rng.random() < 0.5:
                at = f"({at})"
            return ("not", a), f"{self.kw('NOT', '!')} {at}", "not"
        if r < 0.41:
            if rng.random() < 0.5:
                return ("true",), self.kw("TRUEPREDICATE"), "atom"
            return ("false",), self.kw("FALSEPREDICATE"), "atom"
        tree, text = self.atom(q)
        return tree, text, "atom"

    def atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        r = rng.random()
        if r < 0.30:
            return self.numeric_atom(q)
        if r < 0.70:
            return self.string_atom(q)
        if r < 0.80:
            return self.date_atom(q)
        if r < 0.85:
            v = rng.random() < 0.5 if rng.random() < 0.9 else None
            op = rng.choice(["==", "!="])
            c, ct = self.constant(q, v, "bool")
            return ("cmp", op, ("prop", "b"), c, ""), f"b {self.cmp_text(op)} {ct}"
        if r < 0.90:
            return self.null_atom(q)
        return self.arith_atom(q)

    def cmp_text(self, op: str) -> str:
        if op == "==":
            return self.rng.choice(["==", "==", "="])
        if op == "!=":
            return self.rng.choice(["!=", "!=", "<>"])
        return op

    def comparison(self, q: Query, lhs: tuple, lt: str, rhs: tuple, rt: str, op: str, options: str = "") -> Tuple[tuple, str]:
        mod = f"[{options}]" if options else ""
        if self.rng.random() < 0.2 and rhs[0] == "const" and not options:
            swapped = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
            return ("cmp", op, lhs, rhs, ""), f"{rt} {self.cmp_text(swapped)} {lt}"
        return ("cmp", op, lhs, rhs, options), f"{lt} {self.cmp_text(op)}{mod} {rt}"

    def numeric_atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        name = rng.choice(NUMERIC)
        kind = TYPES[name]
        r = rng.random()
        if r < 0.55:
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            c, ct = self.constant(q, self.value_for("int" if name in INTS else kind), "int")
            return self.comparison(q, ("prop", name), name, c, ct, op)
        if r < 0.7:
            values = [self.value_for("int" if name in INTS else kind) for _ in range(rng.randint(0, 5))]
            if rng.random() < 0.15:
                values.append(None)
            return self.in_atom(q, name, values, "int")
        if r < 0.85:
            lo, hi = sorted([self.value_for("int"), self.value_for("int")], key=lambda v: (v != v, v))
            if rng.random() < 0.1:
                lo, hi = hi, lo
            a, at = self.constant(q, lo, "int")
            b, bt = self.constant(q, hi, "int")
            return ("between", ("prop", name), a, b), f"{name} {self.kw('BETWEEN')} {{{at}, {bt}}}"
        other = rng.choice(NUMERIC)
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return ("cmp", op, ("prop", name), ("prop", other), ""), f"{name} {self.cmp_text(op)} {other}"

    def in_atom(self, q: Query, name: str, values: List[Any], kind: str, options: str = "") -> Tuple[tuple, str]:
        rng = self.rng
        if rng.random() < 0.5:
            return self.list_atom(q, name, values, kind, options)
        mod = f"[{options}]" if options else ""
        in_kw = self.kw("IN")
        ref_values = [ref.ts_from_datetime(v) if kind == "date" and isinstance(v, dt.datetime) else v for v in values]
        if rng.random() < 0.4 and not any(isinstance(v, TS) for v in values):
            if len(values) == 1 and rng.random() < 0.3:
                q.args.append(values[0])  # a single value after IN
            else:
                q.args.append(list(values))
            return ("in", ("prop", name), ref_values, options), f"{name} {in_kw}{mod} ${len(q.args) - 1}"
        items = []
        for v in values:
            _, text = self.constant(q, v, kind)
            items.append(text)
        return ("in", ("prop", name), ref_values, options), f"{name} {in_kw}{mod} {{{', '.join(items)}}}"

    def list_atom(self, q: Query, name: str, values: List[Any], kind: str, options: str) -> Tuple[tuple, str]:
        """``name op [ANY|ALL|NONE] {values}`` (or a list argument): any operator against a list, as
        realm-core reads it (ANY when no quantifier is written; over an empty list ANY is false,
        ALL and NONE true)."""
        rng = self.rng
        ops = ["==", "!=", "<", "<=", ">", ">="] + (["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"] if kind == "string" else [])
        op = rng.choice(ops)
        if op in ("<", "<=", ">", ">="):
            options = ""  # [c] and [d] apply to ==, != and the string operators only
        if op in ("BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"):
            values = [v if v is None or rng.random() < 0.5 else self.pattern(op) for v in values]
        quantifier = rng.choice(["", "", "ANY", "SOME", "ALL", "NONE"])
        mod = f"[{options}]" if options else ""
        written = f"{self.kw(quantifier)} " if quantifier else ""
        ref_values = [ref.ts_from_datetime(v) if kind == "date" and isinstance(v, dt.datetime) else v for v in values]
        tree = ("list", op, {"": "ANY", "SOME": "ANY"}.get(quantifier, quantifier), ("prop", name), ref_values, options)
        op_text = self.kw(op) if op.isalpha() else op
        # The list may come first, with its quantifier before it (`ALL {1, 2} > age`): the same
        # test with the operator mirrored, as realm-core reads it.
        list_first = op not in ("BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE") and rng.random() < 0.3
        if rng.random() < 0.3 and not any(isinstance(v, TS) for v in values):
            q.args.append(list(values))
            written_list = f"${len(q.args) - 1}"
        else:
            written_list = "{" + ", ".join(self.constant(q, v, kind)[1] for v in values) + "}"
        if list_first:
            return tree, f"{written}{written_list} {MIRRORED.get(op, op)}{mod} {name}"
        return tree, f"{name} {op_text}{mod} {written}{written_list}"

    def options(self) -> str:
        return self.rng.choice(["", "", "", "c", "d", "cd", "dc"])

    def pattern(self, op: str) -> str:
        """A pattern likely to match some strings: a piece of a stored string, maybe re-cased."""
        rng = self.rng
        base = self.sample(rng.choice(STRINGS)) or ""
        if rng.random() < 0.15:
            base = gen_string(rng)
        if base and rng.random() < 0.8:
            k = rng.randint(0, len(base))
            if op == "BEGINSWITH":
                base = base[:k]
            elif op == "ENDSWITH":
                base = base[k:]
            elif op == "CONTAINS":
                j = rng.randint(k, min(len(base), k + 40))
                base = base[k:j]
        if rng.random() < 0.3:
            base = rng.choice([base.upper(), base.lower(), ref.remove_diacritics(base)])
        if op == "LIKE":
            chars = list(base)
            for _ in range(rng.randint(0, 3)):
                if chars:
                    j = rng.randrange(len(chars))
                    chars[j] = rng.choice(["*", "?", "**"])
            if rng.random() < 0.3:
                chars = chars[: rng.randint(0, len(chars))] + ["*"]
            base = "".join(chars)
        return base

    def string_atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        name = rng.choice(STRINGS)
        r = rng.random()
        if r < 0.45:
            op = rng.choice(["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"])
            options = self.options()
            mod = f"[{options}]" if options else ""
            if rng.random() < 0.08:
                other = rng.choice(STRINGS)
                return ("match", op, ("prop", name), ("prop", other), "".join(sorted(options))), f"{name} {self.kw(op)}{mod} {other}"
            value = self.pattern(op) if rng.random() < 0.95 else None
            c, ct = self.constant(q, value, "string")
            return ("match", op, ("prop", name), c, "".join(sorted(options))), f"{name} {self.kw(op)}{mod} {ct}"
        if r < 0.7:
            op = rng.choice(["==", "!="])
            options = self.options()
            c, ct = self.constant(q, self.value_for("string") if rng.random() < 0.95 else None, "string")
            tree, text = self.comparison(q, ("prop", name), name, c, ct, op, options)
            return (tree[:4] + ("".join(sorted(tree[4])),)), text
        if r < 0.8:
            values = [self.value_for("string") for _ in range(rng.randint(0, 4))]
            if rng.random() < 0.15:
                values.append(None)
            options = self.options()
            return self.in_atom(q, name, values, "string", "".join(sorted(options)) if options else "")
        if r < 0.92:
            op = rng.choice(["<", "<=", ">", ">="])
            c, ct = self.constant(q, self.value_for("string"), "string")
            return self.comparison(q, ("prop", name), name, c, ct, op)
        if r < 0.96:
            lo, hi = sorted([self.value_for("string"), self.value_for("string")])
            a, at = self.constant(q, lo, "string")
            b, bt = self.constant(q, hi, "string")
            return ("between", ("prop", name), a, b), f"{name} {self.kw('BETWEEN')} {{{at}, {bt}}}"
        other = "s" if name == "os" else "os"
        op = rng.choice(["==", "!="])
        options = self.options()
        mod = f"[{options}]" if options else ""
        return ("cmp", op, ("prop", name), ("prop", other), "".join(sorted(options))), f"{name} {self.cmp_text(op)}{mod} {other}"

    def date_atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        r = rng.random()
        if r < 0.65:
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            c, ct = self.constant(q, self.value_for("date"), "date")
            return self.comparison(q, ("prop", "dt"), "dt", c, ct, op)
        if r < 0.85:
            lo, hi = sorted([self.value_for("date"), self.value_for("date")],
                            key=lambda v: int(v) if isinstance(v, TS) else int(ref.ts_from_datetime(v)))
            a, at = self.constant(q, lo, "date")
            b, bt = self.constant(q, hi, "date")
            return ("between", ("prop", "dt"), a, b), f"dt {self.kw('BETWEEN')} {{{at}, {bt}}}"
        values = [self.value_for("date") for _ in range(rng.randint(0, 4))]
        values = [v for v in values if isinstance(v, dt.datetime)]
        if rng.random() < 0.2:
            values.append(None)
        return self.in_atom(q, "dt", values, "date")

    def null_atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        name = rng.choice(NAMES[1:])
        op = rng.choice(["==", "!=", "==", "!=", "<", ">="])
        c, ct = self.constant(q, None, TYPES[name])
        return self.comparison(q, ("prop", name), name, c, ct, op)

    def arith_atom(self, q: Query) -> Tuple[tuple, str]:
        rng = self.rng
        a, at, _ = self.numeric_expr(q, 0)
        if a[0] == "prop":
            a, at = ("arith", "+", a, ("const", 1)), f"{at} + 1"
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        r = rng.random()
        if r < 0.5:
            # The expression's value on some row (maybe off by one): comparisons then sit on the
            # boundary, where wrapping, truncating division and int/double mixing show.
            row = ref.Table([reference_row(rng.choice(self.rows))], NAMES)
            value = ref.expression(row, a)[0]
            if type(value) is int and rng.random() < 0.4:
                value = ref.wrap64(value + rng.choice([-1, 1]))
            c, ct = self.constant(q, value, "int")
        elif r < 0.8:
            c, ct = self.constant(q, self.value_for("int"), "int")
        elif r < 0.87:
            c, ct = self.constant(q, None, "int")
        else:
            c, ct, _ = self.numeric_expr(q, 1)
        return ("cmp", op, a, c, ""), f"{at} {self.cmp_text(op)} {ct}"

    # -- operations

    def operations(self, q: Query) -> None:
        rng = self.rng
        ops: List[tuple] = []
        for _ in range(rng.choice([1, 1, 2])):
            r = rng.random()
            if r < 0.5:
                if rng.random() < 0.4:
                    ascending = rng.random() < 0.5
                    keys = [(name, ascending) for name in rng.choice(INDEXED_SORTS)]
                else:
                    keys = [(rng.choice(NAMES[1:]), rng.random() < 0.5) for _ in range(rng.randint(1, 2))]
                ops.append(("sort", keys))
            elif r < 0.75:
                ops.append(("distinct", [rng.choice(NAMES[1:]) for _ in range(rng.randint(1, 2))]))
            elif ops and ops[-1][0] == "sort" or rng.random() < 0.3:
                ops.append(("limit", rng.choice([0, 1, 2, 5, 10, 100, 5000])))
        q.operations = ops
        if rng.random() < 0.5:
            parts = []
            for op in ops:
                if op[0] == "sort":
                    parts.append(f"{self.kw('SORT')}(" + ", ".join(
                        f"{n} {self.kw('ASC', 'ASCENDING') if a else self.kw('DESC', 'DESCENDING')}" for n, a in op[1]) + ")")
                elif op[0] == "distinct":
                    parts.append(f"{self.kw('DISTINCT')}(" + ", ".join(op[1]) + ")")
                else:
                    parts.append(f"{self.kw('LIMIT')}({op[1]})")
            q.suffix = " " + " ".join(parts)
        else:
            q.method_ops = ops

    def query(self) -> Query:
        q = Query()
        tree, text, _ = self.predicate(q, self.rng.choice([0, 1, 1, 2, 2, 3]))
        q.tree, q.text = tree, text
        if self.rng.random() < 0.25:
            self.operations(q)
            q.text += q.suffix
        return q


# --------------------------------------------------------------------------- running
