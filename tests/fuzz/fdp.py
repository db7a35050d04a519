"""A pure-Python stand-in for ``atheris.FuzzedDataProvider`` (the methods the harness uses).

It consumes the bytes exactly as atheris's C++ provider does (src/native/fuzzed_data_provider.cc
in atheris 3.x), so an input saved by the fuzzer makes the same decisions when it is replayed
without atheris (``bindings/python/tests/test_fuzz_corpus.py``). Integers in a range are taken
from the *end* of the data, everything else from the front, as in libFuzzer's provider.
"""
from __future__ import annotations

import struct
import sys

_UINT64_MAX = (1 << 64) - 1
_DBL_MAX = sys.float_info.max


class FuzzedDataProvider:
    """``FuzzedDataProvider(data)``: ConsumeBytes, ConsumeInt, ConsumeIntInRange, ConsumeBool,
    ConsumeUnicode, ConsumeUnicodeNoSurrogates, ConsumeProbability, ConsumeFloat,
    ConsumeRegularFloat, PickValueInList and remaining_bytes, with atheris's semantics."""

    def __init__(self, data: bytes) -> None:
        self._data = bytes(data)
        self._pos = 0  # front cursor
        self._end = len(self._data)  # back cursor (ConsumeIntInRange takes bytes from here)

    # -- bookkeeping -------------------------------------------------------

    def remaining_bytes(self) -> int:
        return self._end - self._pos

    def _take(self, n: int) -> bytes:
        n = max(0, min(n, self.remaining_bytes()))
        out = self._data[self._pos:self._pos + n]
        self._pos += n
        return out

    # -- bytes and integers -------------------------------------------------

    def ConsumeBytes(self, count: int) -> bytes:
        return self._take(count)

    def ConsumeInt(self, byte_count: int) -> int:
        return int.from_bytes(self._take(byte_count), "little", signed=True)

    def ConsumeUInt(self, byte_count: int) -> int:
        return int.from_bytes(self._take(byte_count), "little", signed=False)

    def _small_int_in_range(self, n_bits: int, delta: int) -> int:
        result = 0
        offset = 0
        while offset < n_bits and (delta >> offset) > 0 and self._end > self._pos:
            self._end -= 1
            result = ((result << 8) | self._data[self._end]) & _UINT64_MAX
            offset += 8
        if delta != _UINT64_MAX:
            result %= delta + 1
        return result

    def ConsumeIntInRange(self, lo: int, hi: int) -> int:
        delta = hi - lo
        if delta < 0:
            raise RuntimeError("ConsumeIntInRange: min must be <= max")
        size = delta.bit_length()
        if size <= 64:
            return lo + self._small_int_in_range(size, delta)
        return lo + self.ConsumeInt(size // 8) % (delta + 1)

    def ConsumeBool(self) -> bool:
        if self.remaining_bytes() == 0:
            return False
        return bool(self._take(1)[0] & 1)

    def PickValueInList(self, values: list):
        n = len(values)
        bits = 8 if n <= 0xFF else 16 if n <= 0xFFFF else 32 if n <= 0xFFFFFFFF else 64
        return values[self._small_int_in_range(bits, n - 1)]

    # -- floats ---------------------------------------------------------------

    def ConsumeProbability(self) -> float:
        integral = int.from_bytes(self._take(8), "little")
        return float(integral) / float(_UINT64_MAX)

    def _float_in_range(self, lo: float, hi: float) -> float:
        result = lo
        if lo < 0 and hi > 0 and lo + _DBL_MAX < hi:
            rng = (hi / 2) - (lo / 2)
            if self.ConsumeBool():
                result += rng
        else:
            rng = hi - lo
        return result + rng * self.ConsumeProbability()

    def ConsumeRegularFloat(self) -> float:
        return self._float_in_range(-_DBL_MAX, _DBL_MAX)

    def ConsumeFloat(self) -> float:
        if self.remaining_bytes() == 0:
            return 0.0
        kind = self._take(1)[0]
        if kind <= 10:
            self._take(9)
            return (0.0, -0.0, float("inf"), float("-inf"), float("nan"), 5e-324, -5e-324,
                    sys.float_info.min, -sys.float_info.min, _DBL_MAX, -_DBL_MAX)[kind]
        return self.ConsumeRegularFloat()

    # -- text -----------------------------------------------------------------

    def _unicode(self, count: int, filter_surrogates: bool) -> str:
        if count == 0 or self.remaining_bytes() == 0:
            return ""
        if self.remaining_bytes() == 1:
            self._take(1)
            return ""
        spec = self._take(1)[0]
        if spec & 1:
            return "".join(chr(b & 0x7F) for b in self._take(count))
        if spec & 2:
            raw = self._take(count * 2)
            units = struct.unpack(f"<{len(raw) // 2}H", raw[: len(raw) & ~1])
            if filter_surrogates:
                units = tuple(u - 0xD800 if 0xD800 <= u < 0xE000 else u for u in units)
            return "".join(map(chr, units))
        raw = self._take(count * 4)
        cps = []
        for (cp,) in struct.iter_unpack("<I", raw[: len(raw) & ~3]):
            cp &= 0x1FFFFF
            if cp & 0x100000:
                cp &= ~0x0F0000
            if filter_surrogates and 0xD800 <= cp < 0xE000:
                cp -= 0xD800
            cps.append(cp)
        return "".join(map(chr, cps))

    def ConsumeUnicode(self, count: int) -> str:
        return self._unicode(count, False)

    def ConsumeUnicodeNoSurrogates(self, count: int) -> str:
        return self._unicode(count, True)
