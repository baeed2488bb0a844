"""The monitor of a supervised process: what the fuzzing process tells its supervisor.

A small shared file mapped in both processes (:class:`Monitor`; :mod:`harness.running.supervisor`
reads it when the process ends): a phase byte (the engine's code running, the engine
loading, or the harness's), a finished byte with the run's exit code, and the current
example as lines (its board, each event before it is applied, each step's decisions). The
harness writes it where a game starts and an event is applied (:mod:`harness.running.execution`);
this module imports nothing of the harness but :mod:`harness.running.interrupts`.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import tempfile
from typing import Any
from collections.abc import Mapping
from dataclasses import dataclass

#: Offsets in the shared file: the phase byte, the finished byte, its exit code (int32), the
#: length of the record area used (int32), the interrupt byte (the child saw a Ctrl-C).
PHASE, FINISHED, CODE, LENGTH, INTERRUPTED = 0, 1, 4, 8, 12
RECORD = 64
#: The size of the shared file: a sparse file, only the pages written cost memory.
SIZE = 16 * 1024 * 1024
HARNESS, ENGINE, LOADING = 0, 1, 2


def new_monitor_file(folder=None) -> str:
    """A new shared file for one monitored process (all zeros: harness code, nothing recorded)."""
    handle, path = tempfile.mkstemp(prefix="rulesfuzz-monitor-", dir=folder)
    try:
        os.ftruncate(handle, SIZE)
    finally:
        os.close(handle)
    return path


class Monitor:
    """The child's side (and the supervisor's reader) of a shared monitor file."""

    def __init__(self, path: str):
        self.path = path
        with open(path, "r+b") as handle:
            self.map = mmap.mmap(handle.fileno(), SIZE)
        self._start = RECORD  # where the current example's record begins (after the meta line)
        self._end = RECORD
        self._full = False

    # ------------------------------------------------------------------ the child writes
    def _append(self, tag: bytes, data) -> None:
        if self._full:
            return
        line = tag + json.dumps(data, separators=(",", ":"), default=str).encode() + b"\n"
        end = self._end + len(line)
        if end > SIZE:
            self._full = True  # the example goes on unrecorded: its replay file ends where this stops
            return
        self.map[self._end:end] = line
        self._end = end
        struct.pack_into("<i", self.map, LENGTH, end)

    def meta(self, engine_name: str, engine_version: str, seed) -> None:
        """Who is fuzzed (the first line: kept for every example)."""
        self._end = RECORD
        self._full = False
        self._append(b"M", {"name": engine_name, "version": engine_version, "seed": seed})
        self._start = self._end

    def board(self, board: Mapping[str, Any]) -> None:
        """A new game starts on ``board``: the record is this example's from here on."""
        self._end = self._start
        self._full = False
        self._append(b"B", board)

    def event(self, event: Mapping[str, Any]) -> None:
        """The next event is about to be applied."""
        self._append(b"E", event)

    def step(self, decisions: list, illegal) -> None:
        """The event just applied asked ``decisions`` (and was refused as ``illegal``, if not None)."""
        if decisions or illegal:
            self._append(b"D", {"decisions": decisions, **({"illegal": illegal} if illegal else {})})

    def finished(self, code: int) -> None:
        """The run ended with exit code ``code`` (set just before the child returns it)."""
        struct.pack_into("<i", self.map, CODE, int(code))
        self.map[FINISHED] = 1

    def interrupted(self) -> None:
        self.map[INTERRUPTED] = 1

    # ------------------------------------------------------------------ the supervisor reads
    def state(self) -> ChildState:
        length = struct.unpack_from("<i", self.map, LENGTH)[0]
        meta, board = None, None
        steps: list[dict] = []
        for line in bytes(self.map[RECORD:max(RECORD, min(length, SIZE))]).splitlines():
            tag, body = line[:1], line[1:]
            try:
                data = json.loads(body)
            except ValueError:
                break  # a line cut by the end of the process
            if tag == b"M":
                meta = data
            elif tag == b"B":
                board, steps = data, []
            elif tag == b"E":
                steps.append({"event": data, "decisions": []})
            elif tag == b"D" and steps:
                steps[-1]["decisions"] = data.get("decisions", [])
                if data.get("illegal"):
                    steps[-1]["illegal"] = data["illegal"]
        return ChildState(self.map[PHASE], struct.unpack_from("<i", self.map, CODE)[0] if self.map[FINISHED] else None,
                          meta, board, steps, bool(self.map[INTERRUPTED]))

    def close(self) -> None:
        try:
            self.map.close()
        except (BufferError, ValueError):
            pass


@dataclass
class ChildState:
    """What a monitored process said before it ended: its phase, its exit code if it finished,
    who was fuzzed (``meta``), and the last example's board and steps."""

    phase: int
    finished: int | None
    meta: dict | None
    board: dict | None
    steps: list
    interrupted: bool = False


#: This process's monitor, set in a monitored child (:func:`attach`); the harness calls its
#: writers where a game starts and an event is applied (:mod:`harness.running.execution`).
ACTIVE: Monitor | None = None


def attach(path: str) -> Monitor:
    """Monitor this process (a supervised child or a worker) through the file ``path``."""
    global ACTIVE
    from harness.running import interrupts

    ACTIVE = Monitor(path)
    interrupts.monitor_with(ACTIVE.map, ACTIVE.interrupted)
    return ACTIVE


class loading:
    """A block where the engine loads (its imports run): an end of the process there is an
    engine that can't load (exit 2), not a finding."""

    def __enter__(self):
        if ACTIVE is not None:
            ACTIVE.map[PHASE] = LOADING

    def __exit__(self, *exc):
        if ACTIVE is not None:
            ACTIVE.map[PHASE] = HARNESS
