"""Power-loss runs: a writer under the shim, then images of the file at chosen crash moments.

Creation runs are power-loss runs that create a new file (see the entry script's docstring).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Optional

from durability.checker import evaluate
from durability.images import apply_record, apply_torn, differing_pages
from durability.processes import child_environ
from durability.shim import Record, read_journal
from durability.suite import Suite
from durability.writer import Child


class PowerLossSuite(Suite):
    """The suite with its power-loss and creation runs (kill rounds come from Suite)."""

    def powerloss_run(self) -> None:
        n = self.extra["powerloss_runs"]
        self.extra["powerloss_runs"] += 1
        commits = self.rng.randint(10, self.args.powerloss_commits)
        # Usually let it finish its commits; sometimes kill it on the way.
        delay = 60.0 if self.rng.random() < 0.7 else self.rng.uniform(0.05, 1.0)
        self.journaled_run(self.path, f"power-loss run {n}", commits, delay, self.committed)

    def creation_run(self) -> None:
        """A power-loss run that creates a new file (at a new path), sometimes over a crashed
        creator's leftovers, sometimes killed by the shim while it creates it."""
        n = self.extra["creation_runs"]
        self.extra["creation_runs"] += 1
        path = str(self.workdir / f"created-{n}.realm")
        leftovers = []
        if self.rng.random() < 0.4:  # a creator crashed while it built the file
            Path(path + "-creating").write_bytes(self.rng.randbytes(self.rng.choice([0, 100, 4096, 20000])))
            leftovers.append("-creating")
        if self.rng.random() < 0.3:  # a deleted realm's lock file
            Path(path + "-lock").write_bytes(self.rng.randbytes(8192))
            leftovers.append("-lock")
        kill: Dict[str, str] = {}
        if self.rng.random() < 0.4:  # killed while it creates the file (or at its first commit)
            kill = {"POWERLOSS_KILL_AT": str(self.rng.randint(1, 12)),
                    "POWERLOSS_KILL_WHEN": self.rng.choice(["before", "after"])}
        label = f"creation run {n}" + (f" (leftover {', '.join(leftovers)})" if leftovers else "") + \
            (f" (shim kill at {kill['POWERLOSS_KILL_AT']} {kill['POWERLOSS_KILL_WHEN']})" if kill else "")
        try:
            self.journaled_run(path, label, self.rng.randint(2, 8), 60.0, 0, kill)
        finally:
            for suffix in ("", "-lock", "-creating"):
                Path(path + suffix).unlink(missing_ok=True)

    def journaled_run(self, path: str, label: str, commits: int, delay: float, start_commit: int,
                      kill: Optional[Dict[str, str]] = None) -> None:
        """A writer child under the shim, then the file it left and its power-loss images."""
        creating_path = path + "-creating"
        creating = not os.path.exists(path)
        # What the watched file holds before the child: the file, or for a new one, the leftover
        # it is built from (the library empties it first).
        source = creating_path if creating else path
        leftover = creating and os.path.exists(creating_path)
        base = Path(source).read_bytes() if os.path.exists(source) else b""
        journal_path = self.workdir / f"journal-{self.extra['powerloss_runs'] + self.extra['creation_runs']}.bin"
        env = child_environ({"LD_PRELOAD": str(self.shim), "POWERLOSS_TARGET": path,
                             "POWERLOSS_CREATING": creating_path, "POWERLOSS_JOURNAL": str(journal_path),
                             **(kill or {})})
        child = self.run_child(env, delay, commits=commits, mark=True, label=label, path=path,
                               expect_start=start_commit, may_die_early=bool(kill))
        if child is None:
            journal_path.unlink(missing_ok=True)
            return
        self.figures["kill_rounds"] += 1
        self.extra["powerloss_commits"] += child.acked - start_commit
        # As the child left it (a new file killed before its rename: the -creating file).
        in_place = os.path.exists(path)
        left = path if in_place else creating_path
        actual = Path(left).read_bytes() if os.path.exists(left) else b""
        self.verify_file(child, label + f" (the file after the kill, acked {child.acked})", path)
        if os.path.exists(creating_path):
            self.fail("wrong", f"{label}: '{Path(creating_path).name}' is left after the file was opened")
        try:
            records, pending = read_journal(journal_path)
        finally:
            journal_path.unlink(missing_ok=True)
        self.extra["journal_in_flight"] += len(pending)
        self.check_images(base, actual, records, pending, child, start_commit, label, creating,
                          in_place, leftover)

    def check_images(self, base: bytes, actual: bytes, records: List[Record], pending: List[Record],
                     child: Child, start_commit: int, label: str, creating: bool = False,
                     in_place: bool = True, leftover: bool = False) -> None:
        """`creating`: the run created the file (`base` is what the -creating file held, when
        there was one: `leftover`); `in_place`: the file ended up at its path."""
        writes = [r for r in records if r.type == "W"]
        syncs = [r for r in records if r.type == "S"]
        dsync = [r for r in writes if r.kind == 1]
        self.extra["journal_writes"] += len(writes)
        self.extra["journal_syncs"] += len(syncs)
        self.extra["journal_dsync_writes"] += len(dsync)
        others = sorted({r.type for r in records} - set("WSOCMKTND"))
        if others:
            self.messages.append(f"note: {label}: journal records of types {others} (not expected from LMDB)")
        acked_marks = [r.aux // 2 for r in records if r.type == "M" and r.aux % 2 == 0]
        names = [r for r in records if r.type == "N"]      # the new file got the target's name
        dir_syncs = [r for r in records if r.type == "D"]  # ... durably after one of these
        if creating and in_place and not names and self.args.creation_required:
            self.fail("wrong", f"{label}: a new file that was not renamed into place (the shim saw no rename)")
        if child.acked > start_commit:
            # Blind shim: nothing journaled, or no syncs, would make every image trivially fine.
            if not writes or not syncs or not dsync:
                self.fail("wrong", f"{label}: the shim saw {len(writes)} writes, {len(syncs)} syncs, "
                                   f"{len(dsync)} O_DSYNC writes for {child.acked - start_commit} commits")
                return
            if not set(range(start_commit + 1, child.acked + 1)) <= set(acked_marks):
                self.fail("wrong", f"{label}: acknowledged commits {start_commit + 1}..{child.acked} "
                                   f"but the journal marks {acked_marks[:3]}..{acked_marks[-3:]}")
        # The shim saw every write: the journal replayed onto the copy gives the file's bytes
        # (where a write was cut by the kill, its bytes may be old or new).
        replayed = bytearray(base)
        for r in records:
            apply_record(replayed, r)
        for r in pending:
            apply_record(replayed, r)
        unexplained = [page for page in differing_pages(replayed, actual)
                       if not any(p.offset < (page + 1) * 4096 and page * 4096 < p.offset + len(p.data)
                                  for p in pending)]
        if unexplained:
            self.fail("wrong", f"{label}: the journal replayed gives {len(replayed)} bytes, the file has "
                               f"{len(actual)}; they differ in pages {unexplained[:10]}: the shim missed a write")
            return
        del replayed

        # Crash moments: a crash "at q" happened after every record with seq < q completed.
        seqs = [r.seq for r in records]
        if not seqs:
            return
        seqs += [p.start for p in pending]
        points = sorted({r.seq + 1 for r in records if r.type == "S" or (r.type == "W" and r.kind == 1)})
        before_sync = sorted({r.seq for r in syncs})  # data written, not yet synced
        self.extra["durability_points"] += len(points)
        moments = set()
        budget = self.args.images
        last = max(seqs)
        pools = [points, before_sync, list(range(min(seqs), last + 2))]
        # When the file was created by this run: the moment its creation ended (its name durable;
        # without a rename, LMDB's first meta pages, written without a sync, durable).
        creation_end = None
        if creating and names:
            creation_end = min((d.seq + 1 for d in dir_syncs if d.aux > names[0].seq), default=last + 1)
        elif creating and syncs:
            creation_end = syncs[0].seq + 1
        if creation_end is not None:  # every moment until then
            moments.update(range(min(seqs), creation_end + 1))

        def name_in_place(q: int, variant: str) -> bool:
            """Whether the image at moment q has the file at its path."""
            if not creating:
                return True
            if not names:  # created in place (without the library's rename), or never renamed
                return in_place
            if any(d.seq < q and d.aux > names[0].seq for d in dir_syncs):
                return True  # the rename, then a directory sync: durable
            # Renamed but not yet durable: the disk may or may not have the new name.
            return names[0].seq < q and (variant == "all" or (variant == "torn" and self.rng.random() < 0.5))

        moments.add(last + 1)  # the end: everything completed (and what was in flight, in flight)
        candidates = set().union(*pools)
        while len(moments) < budget and not candidates <= moments:
            pool = self.rng.choice([p for p in pools if p])
            moments.add(self.rng.choice(pool))
        image_dir = self.workdir / "images"
        image_dir.mkdir(exist_ok=True)
        writes = writes + pending  # in order of their start; the pending ones never completed
        prefix = bytearray(base)   # every write durable at the current moment applied
        wi = 0                     # index into `writes` of the first not in `prefix`
        for q in sorted(moments):
            sync_start = max((r.aux for r in syncs if r.seq < q), default=0)
            # Durable: every write before the start of a completed sync.
            while wi < len(writes) and writes[wi].seq < sync_start:
                apply_record(prefix, writes[wi])
                wi += 1
            variant = self.rng.choice(["clean", "all", "torn", "torn"])
            image = bytearray(prefix)
            # Completed by q, or started before q and completed after it (in flight).
            tail = [w for w in writes[wi:] if w.start < q]
            keep = self.rng.choice([0.2, 0.5, 0.8])
            zero_fill = self.rng.random() < 0.5
            for w in tail:
                durable = w.kind == 1 and w.seq < q  # an O_DSYNC write that returned
                if durable or (variant == "all" and w.seq < q):
                    apply_record(image, w)
                elif variant == "torn":
                    apply_torn(image, w, self.rng, keep, zero_fill)
            marks = [r.aux for r in records if r.type == "M" and r.seq < q]
            required = max([m // 2 for m in marks if m % 2 == 0] + [start_commit])
            most = max([m // 2 for m in marks if m % 2 == 1] + [start_commit])
            image_path = image_dir / f"image-{self.figures['powerloss_images']}.realm"
            creating_image = Path(str(image_path) + "-creating")
            placed = name_in_place(q, variant)
            if placed:
                image_path.write_bytes(image)
            elif leftover or any(r.type == "O" and r.seq < q for r in records):
                creating_image.write_bytes(image)  # the file as it stood under its temporary name
            self.figures["powerloss_images"] += 1
            if creation_end is not None and q <= creation_end:
                self.extra["creation_images"] += 1
                self.extra["creation_absent"] += not placed
            dump = self.checker.check(str(image_path))
            k, failures = evaluate(dump, required, most)
            what = (f"{label} image at seq {q} of {last} ({variant}, required {required}, begun {most}"
                    + ("" if placed else ", not at its path") + ")")
            if creating_image.exists():
                failures.append(("wrong", f"'{creating_image.name}' is left after the file was opened"))
            self.record(failures, what, powerloss=True)
            if k is not None:
                self.extra["powerloss_images_" + variant] += 1
                self.extra["powerloss_rolled_back"] += k < child.acked
                self.extra["powerloss_beyond_ack"] += k > required
            keep_image = bool(failures) and self.failed_images < 5
            if keep_image:
                self.failed_images += 1
                kept = self.workdir / f"failed-{image_path.name}"
                image_path.rename(kept)
                self.messages.append(f"note: {what}: image kept as {kept}")
            else:
                image_path.unlink(missing_ok=True)
            Path(str(image_path) + "-lock").unlink(missing_ok=True)
            creating_image.unlink(missing_ok=True)
