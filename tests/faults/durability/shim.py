"""The power-loss shim (tests/faults/powerloss_shim.c): building it, and reading its journal."""
from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path
from typing import List, Tuple

SHIM_SOURCE = Path(__file__).resolve().parents[1] / "powerloss_shim.c"


class Record:
    """A journal record. A write ('W') carries the bytes of its intent ('I') and `start`, the
    intent's seq; an intent that never completed is a write with seq NEVER."""
    __slots__ = ("type", "kind", "fd", "pid", "seq", "offset", "length", "aux", "data", "start")

    def __init__(self, type_: str, kind: int, fd: int, pid: int, seq: int, offset: int, length: int,
                 aux: int, data: bytes) -> None:
        self.type, self.kind, self.fd, self.pid, self.seq = type_, kind, fd, pid, seq
        self.offset, self.length, self.aux, self.data = offset, length, aux, data
        self.start = seq


HEADER = struct.Struct("<IBBHiIQqQQ")
MAGIC = 0x314A4C50


NEVER = 1 << 62


def read_journal(path: Path) -> Tuple[List[Record], List[Record]]:
    """The shim's records (each completed write with its intent's bytes), and the writes that
    were started but never returned (the process was killed in the call). A record cut short by
    SIGKILL at the end is ignored."""
    data = path.read_bytes() if path.exists() else b""
    records = []
    pos = 0
    while pos + HEADER.size <= len(data):
        magic, type_, kind, _, fd, pid, seq, offset, length, aux = HEADER.unpack_from(data, pos)
        if magic != MAGIC:
            raise ValueError(f"{path}: bad record at byte {pos}")
        body = length if type_ == ord("I") else 0
        if pos + HEADER.size + body > len(data):
            break
        records.append(Record(chr(type_), kind, fd, pid, seq, offset, length, aux,
                              data[pos + HEADER.size:pos + HEADER.size + body]))
        pos += HEADER.size + body
    intents = {r.seq: r for r in records if r.type == "I"}
    out = []
    for r in records:
        if r.type == "W":
            intent = intents.pop(r.aux, None)
            if intent is None or intent.offset != r.offset or len(intent.data) < r.length:
                raise ValueError(f"{path}: write {r.seq} does not match its intent {r.aux}")
            r.data = intent.data[:r.length]
            r.start = intent.seq
        if r.type != "I":
            out.append(r)
    pending = []
    for intent in intents.values():
        intent.type, intent.start, intent.seq = "W", intent.seq, NEVER
        pending.append(intent)
    return out, pending


def build_shim(workdir: Path) -> Path:
    out = workdir / "powerloss.so"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("a C compiler (cc) is needed for the power-loss shim")
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-o", str(out), str(SHIM_SOURCE), "-ldl", "-lpthread"],
                   check=True)
    return out
