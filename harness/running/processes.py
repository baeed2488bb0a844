"""The worker processes of a run cut into slots (``--workers N``, :mod:`harness.running.workers`):
what each is given (a :class:`SlotJob` per :class:`Slot`), starting them (SIGINT blocked until
each can end with what it found) on the body the caller gives
(``harness.running.workers._worker_process``: this module imports nothing of the workers, which
import it), listening to them (:class:`Processes`: a slot's start and result,
a worker's end, its death, which in a supervised run is its slot's finding), passing a
Ctrl-C on, and how the run ended (:func:`collect`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from collections.abc import Callable

from harness.protocol import RulesfuzzError
from harness.running import interrupts
from harness.running.execution import Stats
from harness.running.settings import RunSettings


@dataclass(frozen=True)
class Slot:
    """Slot ``index`` (0-based) of ``total``: ``examples`` to generate with ``seed``."""

    index: int
    total: int
    examples: int
    seed: int


@dataclass(frozen=True)
class SlotJob:
    """What a worker process needs to run one slot (all picklable): engine specs, not engine objects."""

    slot: Slot
    engine: str
    against: str | None
    database: str | None
    replay_dir: str | None
    isolate: bool
    quiet: bool
    #: The run's settings (:class:`harness.running.settings.RunSettings`; a dict of its fields is
    #: made one): the slot's budget, seed and replay folder replace theirs
    #: (:meth:`harness.running.workers.Worker.run`).
    options: RunSettings
    oracle: tuple[str, ...] = ()  # --oracle files (cards.load_oracle_file), loaded by the worker first

    def __post_init__(self):
        if isinstance(self.options, dict):
            object.__setattr__(self, "options", RunSettings(**self.options))


def slot_folder(replay_dir, slot: Slot) -> Path | None:
    """Where slot ``slot`` writes its replay files before they are merged."""
    return Path(replay_dir) / f".slot-{slot.index + 1}-of-{slot.total}" if replay_dir is not None else None


class WorkerFailed(RuntimeError, RulesfuzzError):
    """A worker process ended without a result: it raised (the message has its traceback), or it
    died (the engine ended or crashed the process: ``--isolate`` makes that a finding).

    ``results`` are the results of the slots that ended (slot order); :func:`harness.running.workers.run_slots` merges
    them into ``result`` (a :class:`harness.running.runner.RunResult`, replay files in the replay
    folder, or None when no slot ended), so the findings made before the failure are reported.
    """

    def __init__(self, message: str, results: list | None = None):
        super().__init__(message)
        self.results = list(results or [])
        self.result = None


def write_slot_changes(database: str | None, changes: dict[int, list]) -> None:
    """Write the slots' example database changes (``changes``: job index -> ``[(operation,
    args)]``) to the database of the spec ``database``, in slot order. Called once no worker
    is left, so no slot of the run saw another's. A database that can't be written now (a
    Redis server gone) is said on stderr: the run's findings are still reported, with their
    replay files."""
    if not any(changes.values()) or database in (None, "none", "memory"):  # memory: one per worker, gone
        return
    from harness.running.databases import write_changes
    from harness.running.runner import database_from

    try:
        shared = database_from(database)
        for index in sorted(changes):
            write_changes(shared, changes[index])
    except Exception as exc:  # noqa: BLE001  DatabaseError, a Redis or file system error
        print(f"rulesfuzz: the example database {database} could not be written ({type(exc).__name__}: {exc}); "
              f"this run's failures won't be replayed first by the next run", file=sys.stderr)


@contextlib.contextmanager
def _sigint_blocked():
    """SIGINT blocked in this thread within the block (a worker process started in it inherits
    the mask through exec, its imports included); a SIGINT that came meanwhile is delivered at the end."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _unblock_sigint() -> None:
    """Unblock SIGINT (a worker process started by :func:`_sigint_blocked`)."""
    import signal

    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def run_processes(jobs: list[SlotJob], count: int, deadline: float | None,
                  taken: list[int], measure=None, supervised: bool = False,
                  engine_name: str = "engine", *, body: Callable[..., None]) -> tuple[list, str | None]:
    """Run ``jobs`` on ``count`` worker processes; ``taken[w]`` counts the slots worker ``w`` started.
    ``supervised``: each worker has a monitor file (:mod:`harness.running.supervisor`), read when it dies.
    ``body`` is what each process runs (``harness.running.workers._worker_process``, given by the
    caller so this module imports nothing of the workers). Returns :func:`collect`'s slot results
    and why the run stopped early."""
    return Processes(jobs, count, deadline, measure, supervised, engine_name, body).run(taken)


class Processes:
    """The worker processes of one run (:func:`run_processes`) and what they said so far."""

    def __init__(self, jobs: list[SlotJob], count: int, deadline: float | None, measure, supervised: bool,
                 engine_name: str, body: Callable[..., None]):
        self.jobs, self.count, self.deadline, self.measure, self.body = jobs, count, deadline, measure, body
        self.supervised, self.engine_name = supervised, engine_name
        self.context = get_context("spawn")
        self.next_slot = self.context.Value("i", 0)  # the index of the next slot to take, shared by the workers
        self.workers: list[tuple] = []  # (process, receiver) per worker number
        self.started: list = []  # per worker: set once it can end with what it found
        self.monitors: list[str | None] = []
        self.ends: dict[int, tuple] = {}
        self.results: dict[int, object] = {}
        self.changes: dict[int, list] = {}  # job index -> its example database changes, written when every worker ended
        self.running: dict[int, int] = {}
        self.forwarded = False  # a Ctrl-C was passed on to the workers (the user's, or to stop the run)
        self.failed = False  # a worker died or raised before any Ctrl-C: the others are stopped, the run fails at once

    def start(self, number: int) -> tuple:
        """Start worker process ``number``: ``((process, receiver), began, monitor)``."""
        context = self.context
        receiver, sender = context.Pipe(duplex=False)
        began = context.Event()
        monitor = None
        if self.supervised:
            from harness.running.monitor import new_monitor_file

            monitor = new_monitor_file()
        process = context.Process(target=self.body,
                                  args=(self.jobs, number, self.count, self.next_slot, self.deadline, sender, began,
                                        self.measure, monitor),
                                  name=f"rulesfuzz-worker-{number + 1}")
        with _sigint_blocked():  # the worker inherits the blocked SIGINT through exec: a Ctrl-C while it
            process.start()  # starts waits until it can end with what it found (no traceback of its imports)
        sender.close()
        return (process, receiver), began, monitor

    def stop_workers(self) -> None:
        """Pass a Ctrl-C on to every worker still running."""
        for (process, _), began in zip(self.workers, self.started):
            if not process.is_alive():
                continue
            if began.is_set():  # it ends its run with what it found
                os.kill(process.pid, signal.SIGINT)
            else:  # still starting (a traceback of its imports, nothing found): stop it quietly
                process.terminate()

    def _fail(self) -> None:
        """No result of the run can be reported: stop the others now."""
        self.failed = self.forwarded = True
        self.stop_workers()

    def run(self, taken: list[int]) -> tuple[list, str | None]:
        from multiprocessing.connection import wait

        for number in range(self.count):
            worker, began, monitor = self.start(number)
            self.workers.append(worker)
            self.started.append(began)
            self.monitors.append(monitor)
        try:
            while len(self.ends) < len(self.workers):
                if interrupts.requested() and not self.forwarded:
                    self.forwarded = True
                    self.stop_workers()
                waiting = {receiver: i for i, (_, receiver) in enumerate(self.workers) if i not in self.ends}
                for receiver in wait(list(waiting), timeout=0.2):
                    self._receive(waiting[receiver], receiver, taken)
        finally:
            self._close()
        return collect(self.ends, self.results, self.jobs, self.count, self.forwarded and not self.failed,
                       self.running)

    def _receive(self, number: int, receiver, taken: list[int]) -> None:
        """Take one message of worker ``number`` (or its end without one)."""
        try:
            message = receiver.recv()
        except EOFError:
            self._ended(number, receiver)
            return
        if message[0] == "start":
            self.running[number] = message[1]
            taken[number] += 1
        elif message[0] == "ok":
            self.results[message[1]] = message[2]
            self.changes[message[1]] = message[3]
            self.running.pop(number, None)
        else:
            self.ends[number] = message
            if message[0] == "error" and not self.forwarded:
                self._fail()

    def _ended(self, number: int, receiver) -> None:
        """Worker ``number`` ended without a word: its slot's finding (a supervised run), or its end."""
        process = self.workers[number][0]
        process.join()
        crash = _crashed(self.monitors[number], process.exitcode, self.jobs, self.running.get(number),
                         self.engine_name, number, self.count) if not self.forwarded else None
        if crash is not None:  # a finding of its slot; another worker takes its place
            self.results[self.running.pop(number)] = crash
            receiver.close()
            _forget_monitor(self.monitors[number])
            self.workers[number], self.started[number], self.monitors[number] = self.start(number)
            return
        # once the workers were told to stop, an end without a result is theirs
        self.ends[number] = ("end", "interrupted") if self.forwarded else ("died", process.exitcode)
        if not self.forwarded:
            self._fail()

    def _close(self) -> None:
        """Wait for (or end) every worker, forget the monitor files, write the slots' database changes."""
        for process, receiver in self.workers:
            process.join(timeout=None if len(self.ends) == len(self.workers) else 0)
            if process.is_alive():
                process.terminate()
                process.join()
            receiver.close()
        for monitor in self.monitors:
            _forget_monitor(monitor)
        write_slot_changes(self.jobs[0].database if self.jobs else None, self.changes)


def _crashed(monitor: str | None, exitcode, jobs: list[SlotJob], index: int | None, engine_name: str,
             number: int, count: int):
    """The result of slot ``index`` (a :class:`harness.running.runner.RunResult` with one finding) when the
    worker that ran it died (``exitcode``, as multiprocessing gives it) while its engine's code
    ran, read from its ``monitor`` file; None otherwise (no monitor, no slot, or it died elsewhere)."""
    if monitor is None or index is None or exitcode is None:
        return None
    from harness.reporting.findings import Finding
    from harness.running.runner import RunResult
    from harness.running.supervisor import Monitor, worker_death

    reader = Monitor(monitor)
    try:
        state = reader.state()
    finally:
        reader.close()
    code = 128 - exitcode if exitcode < 0 else exitcode
    job = jobs[index]
    found = worker_death(state, code, slot_folder(job.replay_dir, job.slot), engine_name,
                         f"process of worker {number + 1}/{count}")
    if found is None:
        return None
    key, violations, scenario, path = found
    finding = Finding(key, violations, scenario, replay_path=path)
    finding.notes.append(f"worker {number + 1}/{count} died: its slot {job.slot.index + 1}/{job.slot.total} "
                         f"stopped here (run with --isolate to go on past it, each crash a finding)")
    result = RunResult(engine_name, Stats(), findings=[finding])
    return result


def _forget_monitor(path: str | None) -> None:
    if path is not None:
        try:
            os.unlink(path)
        except OSError:
            pass


def collect(ends: dict[int, tuple], results: dict[int, object], jobs: list[SlotJob], count: int,
            interrupted: bool = False, running: dict[int, int] | None = None) -> tuple[list, str | None]:
    """The slots' results in slot order and why the run stopped early (``"interrupted"``,
    ``"time budget"`` or None), from how each of the ``count`` worker processes ended
    (``ends``: worker number -> ``("end", cut)``, ``("error", traceback)`` or ``("died",
    exit code)``), the results they sent (``results``: job index -> RunResult), whether a
    Ctrl-C was passed on to them (``interrupted``) and the slot each was running (``running``:
    worker number -> job index).

    A worker interrupted before it had a result adds nothing, and the others' results are
    kept: nothing found is lost (after a Ctrl-C with no slot result, the run's result is empty:
    its reports are written all the same). Raises :class:`WorkerFailed` for a worker that
    raised, or died when no Ctrl-C was passed on.
    """
    cuts = set()
    ended = [results[i] for i in sorted(results)]
    for number, (kind, value) in sorted(ends.items()):
        where = f"worker {number + 1}/{count}"
        if kind == "died" and not interrupted:
            slot = jobs[(running or {}).get(number, 0)].slot
            folder = slot_folder(jobs[0].replay_dir, slot)
            raise WorkerFailed(f"{where} ended without a result (exit code {value}) in slot {slot.index + 1}/"
                               f"{slot.total}: the engine ended or crashed its process; run with --isolate to make "
                               f"that a finding" + (f" (files so far are in {folder.parent})"
                                                    if folder and _has_slot_files(folder.parent) else ""), ended)
        if kind == "error":
            raise WorkerFailed(f"{where} failed:\n{value}", ended)
        cuts.add("interrupted" if kind == "died" else value)
    if interrupted:
        cuts.add("interrupted")
    cut = "interrupted" if "interrupted" in cuts else ("time budget" if "time budget" in cuts else None)
    return [results[i] for i in sorted(results)], cut  # interrupted before any result: an empty one


def _has_slot_files(replay_dir: Path) -> bool:
    """Whether a slot left files in its folder under ``replay_dir`` (replay or pending files)."""
    return any(path.is_file() for folder in replay_dir.glob(".slot-*") for path in folder.iterdir())


