"""Bytes of a file rebuilt from journal records: the replay check and the power-loss images."""
from __future__ import annotations

import random
from typing import List

from durability.shim import Record


def differing_pages(a: bytes, b: bytes, page: int = 4096) -> List[int]:
    """The numbers of the pages in which a and b differ (a shorter file differs in its tail)."""
    out = []
    for start in range(0, max(len(a), len(b)), page):
        if a[start:start + page] != b[start:start + page]:
            out.append(start // page)
    return out


def apply_bytes(image: bytearray, offset: int, data: bytes) -> None:
    end = offset + len(data)
    if end > len(image):
        image.extend(bytes(end - len(image)))
    image[offset:end] = data


def apply_record(image: bytearray, r: Record) -> None:
    if r.type == "W":
        apply_bytes(image, r.offset, r.data)
    elif r.type == "T":
        if r.aux == 1:  # fallocate: at least offset + length
            if r.offset + r.length > len(image):
                image.extend(bytes(r.offset + r.length - len(image)))
        elif r.offset < len(image):
            del image[r.offset:]
        else:
            image.extend(bytes(r.offset - len(image)))


SECTOR = 512


def apply_torn(image: bytearray, w: Record, rng: random.Random, keep: float, zero_fill: bool) -> None:
    """Applies each 512-byte sector of a non-durable write with probability `keep`; a dropped
    sector beyond the end of the file reads back as zeros when `zero_fill` (the size reached the
    disk, the data did not) or is not there."""
    pos = w.offset
    end = w.offset + len(w.data)
    while pos < end:
        cut = min(end, (pos // SECTOR + 1) * SECTOR)
        piece = w.data[pos - w.offset:cut - w.offset]
        if rng.random() < keep:
            apply_bytes(image, pos, piece)
        elif zero_fill and cut > len(image):
            start = max(pos, len(image))
            apply_bytes(image, start, bytes(cut - start))
        pos = cut

