"""One run over several processes (``--workers N``) and several CI jobs (``--shard K/N``).

A run's budget is cut into **slots**, each fuzzed by one call of
:func:`harness.running.runner.run` with its own seed (:func:`slot_seed`). A run of one process
and one shard is one slot: the run's own seed and budget. Otherwise the budget
(``--max-examples``, the whole run's total over every shard and worker) is cut into slots
of decreasing size (:func:`slot_sizes`) for ``P = N * W`` processes: rounds of ``P``
slots, each of ``1/(2P)`` of what the earlier rounds left (so each round takes half of
it), down to :data:`SMALLEST_SLOT` examples. Slot ``i`` belongs to shard ``i mod N + 1``; the ``W``
worker processes of a shard take its slots in order, each the next one not yet taken, as
soon as it is free. So a worker on a slower core (other load, a busier neighbour on a
shared host) takes fewer slots instead of holding up the run, and the last slots are
small, so the workers end at about the same time.

Findings depend on the slots only, never on which worker ran a slot or when: each slot
stops at its first finding (``--keep-going``: runs its whole budget) and the other slots
still run; each slot reads the example database as it was when the run started (a
:class:`harness.running.databases.BufferedDatabase` per slot, which reads a key when the slot
first asks for it), and every slot's changes are written back only when no slot is left
to run: by the run's own process once every worker has ended, in slot order (a worker
that wrote its own when it had no slot left to take would be seen by a slot another
worker had taken but not yet begun), so no slot of the run ever replays another's failure
(the next run of any shard replays all of them first). So the
same seed, ``N`` and ``W`` give the same findings, and ``--shard 1/2`` with ``--shard 2/2``
find what ``--workers 2`` finds. ``--max-seconds`` bounds the run's wall time: a worker
takes no slot once it is up, and a slot gets the time left when it starts.

Findings are merged as ``--keep-going`` merges them: one per finding key, the smallest
shrunk scenario of the key (the lowest slot on a tie), the others counted as repeats.
Each slot writes its replay files under ``<replay_dir>/.slot-<i>-of-<T>``; the merged findings
are then saved in ``replay_dir`` (:func:`harness.running.runner.replay_file_path`) and the
slot folders removed, unless a slot left a pending file there (a killed process).
The worker processes themselves (starting them, listening to them, passing a Ctrl-C on) are
:mod:`harness.running.processes`, with what they are given (:class:`Slot`, :class:`SlotJob`), where
slots write (:func:`slot_folder`), how they fail (:class:`WorkerFailed`) and how their database
changes are written (:func:`write_slot_changes`), all re-exported here; what each process runs,
:func:`_worker_process`, is here and handed to :func:`harness.running.processes.run_processes`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Callable

from harness.running import interrupts
from harness.running import scenario as scenario_file
from harness.running.execution import Stats
from harness.running.settings import RunSettings
from harness.running.processes import (  # noqa: F401  (Slot ... write_slot_changes: this module's, as before)
    Slot, SlotJob, WorkerFailed, _unblock_sigint, collect, run_processes, slot_folder, write_slot_changes)
from harness.reporting.findings import Finding, scenario_size
from harness.protocol import RulesfuzzError

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

#: The fewest examples a slot of a run of several slots gets (the last slots of the run,
#: and a budget too small to split): a run costs a few milliseconds before its first example.
SMALLEST_SLOT = 8


class SlotError(ValueError, RulesfuzzError):
    """A bad ``--workers`` or ``--shard`` value; the message says which and what is accepted."""


def parse_workers(text) -> int:
    """``--workers``: a positive integer, or ``auto`` for the cores this process may use. Raises SlotError."""
    if str(text) == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise SlotError(f"--workers {text}: expected a positive number or 'auto'") from None
    if value < 1:
        raise SlotError(f"--workers {text}: expected a positive number or 'auto'")
    return value


def parse_shard(text) -> tuple[int, int]:
    """``--shard K/N`` -> ``(K, N)`` with 1 <= K <= N. Raises SlotError."""
    k, sep, n = str(text).partition("/")
    try:
        k_value, n_value = int(k), int(n)
    except ValueError:
        k_value = n_value = 0
    if not sep or n_value < 1 or not 1 <= k_value <= n_value:
        raise SlotError(f"--shard {text}: expected K/N with 1 <= K <= N, e.g. 2/4")
    return k_value, n_value


def slot_seed(seed: int, index: int, total: int) -> int:
    """The seed of slot ``index`` of ``total`` in a run of ``seed``: ``seed`` itself for a
    run of one slot, else a number derived from all three (so slots explore apart)."""
    if total == 1:
        return seed
    digest = hashlib.sha256(f"rulesfuzz-slot/{seed}/{index}/{total}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def slot_sizes(max_examples: int, parts: int) -> list[int]:
    """The examples of each slot of a run of ``max_examples`` over ``parts`` processes (shards
    times workers), largest first; they add up to ``max_examples``.

    One slot for one part. Otherwise rounds of ``parts`` slots, each of ``1/(2 * parts)`` of
    what is left (rounded up, at least :data:`SMALLEST_SLOT`): guided self-scheduling, so
    a worker that ends its slots early takes more of the small ones at the end.
    """
    if max_examples <= 0:
        return []
    if parts <= 1:
        return [max_examples]
    sizes, left = [], max_examples
    while left > 0:
        size = max(SMALLEST_SLOT, -(-left // (2 * parts)))
        for _ in range(parts):
            take = min(size, left)
            if take:
                sizes.append(take)
                left -= take
    return sizes


def slots(max_examples: int, seed: int, workers: int = 1, shard: tuple[int, int] | None = None) -> list[Slot]:
    """The slots of ``shard`` (K, N) (default 1/1) of a run of ``max_examples`` (the whole run's
    total) with ``workers`` processes per shard, in the order its workers take them: slots
    ``K-1``, ``K-1+N``, ``K-1+2N``... of :func:`slot_sizes` ``(max_examples, N * workers)``.
    Empty when the budget leaves the shard no slot."""
    k, n = shard or (1, 1)
    sizes = slot_sizes(max_examples, n * workers)
    return [Slot(i, len(sizes), size, slot_seed(seed, i, len(sizes)))
            for i, size in enumerate(sizes) if i % n == k - 1]


class Worker:
    """What one worker (a process, or this one) keeps from slot to slot: its engines, loaded
    once from their specs, and the example database changes of each slot it ran, written back
    by :meth:`close` when it ran every slot of the run, or handed to the run's process by
    :meth:`take_changes` (which writes them once every worker ended), so no other slot of the
    run sees them."""

    def __init__(self, label: str = "worker"):
        self.label = label
        self._engines: dict[tuple, object] = {}
        self._shared: dict[str | None, ExampleDatabase | None] = {}  # database_from's, by spec
        self._buffers: list = []

    def _engine(self, spec: str, step_timeout, isolate: bool):
        from harness.connection.loading import load_engine

        key = (spec, step_timeout, isolate)
        if key not in self._engines:
            self._engines[key] = load_engine(spec, step_timeout=step_timeout, isolate=isolate)
        return self._engines[key]

    def run(self, job: SlotJob, max_seconds: float | None = None):
        """Run ``job``'s slot for at most ``max_seconds`` from now, loading its engine included
        (None: its own ``max_seconds`` option); returns its :class:`harness.running.runner.RunResult`.
        Replay files go to the slot's folder."""
        began = time.perf_counter()
        from harness.running.databases import BufferedDatabase
        from harness.running.runner import database_from, run

        slot = job.slot
        chosen = job.options.replace(max_examples=slot.examples, seed=slot.seed,
                                     replay_dir=slot_folder(job.replay_dir, slot))
        timeout = chosen.step_timeout
        _load_oracle(job.oracle)  # before the engine: it may read their cards as it loads
        engine = self._engine(job.engine, timeout, job.isolate)
        against = self._engine(job.against, timeout, False) if job.against else None
        if job.database not in self._shared:
            self._shared[job.database] = database_from(job.database)
        shared = self._shared[job.database]
        database = BufferedDatabase(shared) if shared is not None else None
        if database is not None:
            self._buffers.append(database)
        label = f"{self.label}, slot {slot.index + 1}/{slot.total}"
        from harness.running import monitor

        if monitor.ACTIVE is not None:  # a supervised worker: a crash's replay file names the slot's seed
            monitor.ACTIVE.meta(engine.info.name, engine.info.version, slot.seed)

        def progress(line: str) -> None:
            if not job.quiet:
                print(f"[{label}] {line.strip()}", file=sys.stderr, flush=True)

        if max_seconds is not None:  # the time left once the engine is loaded
            chosen = chosen.replace(max_seconds=max(0.0, max_seconds - (time.perf_counter() - began)))
        return run(engine, chosen, database=database, progress=progress, against=against)

    def take_changes(self) -> list[tuple[str, tuple[bytes, ...]]]:
        """The example database changes of the slots run since the last call, in the order they
        ran (picklable), for the run's own process to write once every worker has ended
        (:func:`write_slot_changes`); :meth:`close` then no longer writes them."""
        changes = [change for database in self._buffers for change in database.take_changes()]
        self._buffers.clear()
        return changes

    def close(self) -> None:
        """Write every slot's database changes back (in the order the slots ran) and close the engines."""
        for database in self._buffers:
            database.flush()
        self._buffers.clear()
        for engine in self._engines.values():
            close = getattr(engine, "close", None)
            if callable(close):
                close()
        self._engines.clear()


def _load_oracle(paths) -> None:
    """Load the ``--oracle`` files of a job this process has not loaded yet (a spawned worker
    process starts with none: :func:`cards.load_oracle_file`)."""
    if not paths:
        return
    import cards

    for path in paths:
        if os.path.abspath(path) not in cards.overlay_files():
            cards.load_oracle_file(path)


def work(jobs: list[SlotJob], take: Callable[[], int | None], deadline: float | None, worker: Worker,
         on_start: Callable[[int], None], on_result: Callable[[int, object], None]) -> str | None:
    """Run the slots of ``jobs`` that ``take()`` hands out (an index, or None when none is left)
    on ``worker``, until none is left; ``on_start(i)`` before slot ``i``, ``on_result(i, result)``
    after it. ``deadline`` is a ``time.time()`` (None: none): no slot starts after it, and a
    slot gets the time left. Returns why the worker stopped early (``"interrupted"``,
    ``"time budget"``) or None. A Ctrl-C between slots (:func:`harness.running.interrupts.requested`,
    or a ``KeyboardInterrupt`` where no flag is installed) ends it as ``"interrupted"``."""
    try:
        while True:
            if interrupts.requested():
                return "interrupted"
            if deadline is not None and deadline - time.time() <= 0:
                return "time budget"
            index = take()
            if index is None:
                return None
            on_start(index)
            result = worker.run(jobs[index], None if deadline is None else max(0.0, deadline - time.time()))
            on_result(index, result)
            if result.cut_short is not None:
                return result.cut_short
    except KeyboardInterrupt:
        return "interrupted"


def _worker_process(jobs: list[SlotJob], number: int, count: int, next_slot, deadline, conn, started=None,
                    measure=None, monitor: str | None = None) -> None:
    """The body of worker process ``number`` of ``count``: take slots (``next_slot``, a shared
    counter) and send ``("start", i)`` before slot ``i``, ``("ok", i, result, changes)`` after
    it (``changes``: its example database changes, :meth:`Worker.take_changes`),
    ``("end", cut)`` at the end (``cut`` as :func:`work` returns it), or ``("error", text)``.
    ``started`` (a multiprocessing Event) is set first, so that a Ctrl-C is passed on only to
    a worker that can end with what it found. A Ctrl-C only sets a flag
    (:func:`harness.running.interrupts.sigint_flag`) that ends the running slot with what it found:
    it never lands while a slot's result is being sent, which would lose it. ``measure`` (a
    :class:`harness.connection.engine_coverage.WorkerMeasure`, ``--engine-coverage``) measures the engine's
    source in this process, saved before the end is sent. ``monitor`` is the shared file of a
    supervised run (:mod:`harness.running.supervisor`): the run's process reads it if this one dies."""
    import traceback

    if monitor is not None:
        from harness.running.monitor import attach

        attach(monitor)

    from harness.connection.engine_coverage import measuring_worker

    def take() -> int | None:
        with next_slot.get_lock():
            index = next_slot.value
            if index >= len(jobs):
                return None
            next_slot.value = index + 1
            return index

    worker = Worker(f"worker {number + 1}/{count}")
    try:
        with interrupts.sigint_flag():
            if started is not None:
                started.set()
            _unblock_sigint()  # started with SIGINT blocked: a Ctrl-C of the start-up arrives now, as the flag
            with measuring_worker(measure):
                try:
                    cut = work(jobs, take, deadline, worker, lambda i: conn.send(("start", i)),
                               lambda i, result: conn.send(("ok", i, result, worker.take_changes())))
                finally:
                    worker.close()
            conn.send(("end", cut))
    except KeyboardInterrupt:
        conn.send(("end", "interrupted"))
    except BaseException:  # noqa: BLE001  sent to the parent, which reports it
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def run_slots(jobs: list[SlotJob], engine_name: str, workers: int = 1, measure=None, supervised: bool = False):
    """Run ``jobs`` (slots in the order they are taken) on ``workers`` processes (this one when
    ``workers`` is 1; never more processes than slots) and merge them into one :class:`harness.running.runner.RunResult`.

    Each job's ``max_seconds`` option bounds the whole run's wall time (module docstring). A
    Ctrl-C of this process (:mod:`harness.running.interrupts`) is passed on to every worker, which
    ends with what it found (a Ctrl-C at a terminal reaches them all anyway); the merge then
    runs as usual (:func:`collect`). Raises :class:`WorkerFailed` when a worker ends without a
    result (the others are then stopped as by a Ctrl-C, at once rather than when the budget
    ran out). A Ctrl-C before any slot ran gives an empty result, cut short ``"interrupted"``,
    with one worker as with several: the run prints its summary, writes its reports, exits 130.
    ``measure`` (:meth:`harness.connection.engine_coverage.EngineCoverage.for_workers`) has worker
    processes measure the engine's source; this process measures itself. ``supervised``: a
    worker that dies while its engine's code runs ends its slot with that finding (its replay
    file the slot's last example, :mod:`harness.running.supervisor`), and another worker takes its place.
    """
    started = time.perf_counter()
    max_seconds = jobs[0].options.max_seconds if jobs else None
    deadline = None if max_seconds is None else time.time() + max_seconds
    jobs = [dataclasses.replace(job, options=job.options.replace(max_seconds=None)) for job in jobs]
    if workers <= 1:
        results: dict[int, object] = {}
        worker = Worker()
        queue = iter(range(len(jobs)))
        try:
            cut = work(jobs, lambda: next(queue, None), deadline, worker, lambda i: None, results.__setitem__)
        finally:
            worker.close()
        # interrupted before any slot ran: an empty result, cut short, reported as the processes' is (collect)
        found, taken = [results[i] for i in sorted(results)], [len(results)]
    else:
        taken = [0] * min(workers, len(jobs))
        try:
            found, cut = run_processes(jobs, len(taken), deadline, taken, measure, supervised, engine_name,
                                       body=_worker_process)
        except WorkerFailed as failed:  # the slots that ended keep their findings, reported with the failure
            merged = merge(failed.results, engine_name, jobs[0].replay_dir, [job.slot for job in jobs])
            merged.slots = {"slots": len(jobs), "taken": taken}
            merged.seconds = time.perf_counter() - started
            failed.result = merged
            raise
    merged = merge(found, engine_name, jobs[0].replay_dir, [job.slot for job in jobs])
    merged.slots = {"slots": len(jobs), "taken": taken}
    if cut is not None and merged.cut_short != "interrupted":
        merged.cut_short = cut
    merged.seconds = time.perf_counter() - started
    return merged


def run_workers(engine: str, *, workers: int = 1, max_examples: int = 200, seed: int = 0,
                shard: tuple[int, int] | None = None, against: str | None = None, database: str | None = "none",
                replay_dir=None, isolate: bool = False, quiet: bool = True, oracle=(), **options):
    """Fuzz the engine named by the spec ``engine`` (as ``--engine``) in slots, as ``rulesfuzz run
    --workers --shard`` does; returns the merged :class:`harness.running.runner.RunResult`.

    ``database`` is a ``--database`` spec (``"none"``: no example database); ``options`` are
    the other fields of :class:`harness.running.settings.RunSettings` (``max_seconds``,
    ``steps_per_example``, ``keep_going``, ``step_timeout``, ``invariant_names``...); ``oracle``
    are ``--oracle`` files every worker loads (:func:`cards.load_oracle_file`). Raises
    :class:`SlotError` when the shard has no example, :class:`WorkerFailed` when a worker
    ends without a result.
    """
    chosen = slots(max_examples, seed, workers, shard)
    if not chosen:
        raise SlotError(f"--max-examples {max_examples} leaves this part of the run no example")
    jobs = [SlotJob(slot, engine, against, database, str(replay_dir) if replay_dir is not None else None, isolate,
                    quiet, RunSettings(**options), tuple(map(str, oracle))) for slot in chosen]
    return run_slots(jobs, _engine_name(engine), workers)


def _engine_name(spec: str) -> str:
    from harness.connection.loading import load_engine

    engine = load_engine(spec)
    try:
        return engine.info.name
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()


def merge_stats(parts: list[Stats]) -> Stats:
    """The sum of ``parts``: numbers added, dicts of numbers added key by key (recursively)."""

    def add(a, b):
        if isinstance(a, dict):
            out = dict(a)
            for key, value in b.items():
                out[key] = add(out[key], value) if key in out else value
            return out
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            return a + b
        if isinstance(a, (list, tuple)):
            return type(a)([*a, *b])
        if isinstance(a, (set, frozenset)):
            return a | b
        return a

    total = Stats()
    for part in parts:
        for f in dataclasses.fields(Stats):
            setattr(total, f.name, add(getattr(total, f.name), getattr(part, f.name)))
    return total


def merge(results: list, engine_name: str, replay_dir, slot_list: list[Slot]):
    """One result from the slots' results: distinct findings (the smallest scenario of each key,
    the lowest slot on a tie, in the order first found), stats summed, replay files moved to
    ``replay_dir``. A finding's ``examples_to_find`` counts the examples of the slot that found it."""
    from harness.reporting import rule_coverage
    from harness.running.runner import RunResult

    merged = RunResult(engine_name, merge_stats([r.stats for r in results]),  # (a crashed slot has no invariants)
                       invariants=next((list(r.invariants) for r in results if r.invariants), []),
                       skipped=next((list(r.skipped) for r in results if r.skipped), []))
    merged.rule_coverage = rule_coverage.merge_reports([r.rule_coverage for r in results])
    for result in results:  # how each slot's examples came about (harness.running.drivers.count_outcomes), added up
        for outcome, n in (getattr(result, "examples_by_outcome", None) or {}).items():
            merged.examples_by_outcome[outcome] = merged.examples_by_outcome.get(outcome, 0) + n
    chosen, others = _distinct_findings(results)
    for finding in chosen.values():
        _move_replay_file(finding, replay_dir, engine_name)
        merged.findings.append(finding)
    for finding in others:
        if finding.replay_path is not None:
            Path(finding.replay_path).unlink(missing_ok=True)
    if replay_dir is not None:
        _remove_empty_slot_folders(replay_dir, slot_list)
    cuts = {r.cut_short for r in results}
    merged.cut_short = "interrupted" if "interrupted" in cuts else ("time budget" if "time budget" in cuts else None)
    merged.also_seen = list(dict.fromkeys(k for r in results for k in r.also_seen if k not in chosen))
    return merged


def _distinct_findings(results: list) -> tuple[dict, list]:
    """The slots' findings by key (the smallest scenario of each, the lowest slot on a tie, in
    the order first found; the others counted as its repeats) and the others."""
    chosen: dict[str, Finding] = {}
    others = []
    for result in results:
        for finding in result.findings:
            best = chosen.get(finding.key)
            if best is None:
                chosen[finding.key] = finding
            elif scenario_size(finding.scenario) < scenario_size(best.scenario):
                chosen[finding.key] = finding
                finding.repeats += best.repeats + 1
                others.append(best)
            else:
                best.repeats += finding.repeats + 1
                others.append(finding)
    return chosen, others


def _remove_empty_slot_folders(replay_dir, slot_list: list[Slot]) -> None:
    for slot in slot_list:
        folder = slot_folder(replay_dir, slot)
        if folder is not None and folder.is_dir() and not any(folder.iterdir()):
            shutil.rmtree(folder, ignore_errors=True)


def _move_replay_file(finding, replay_dir, engine_name: str) -> None:
    """Move ``finding``'s replay file from its slot's folder to ``replay_dir`` (its name there:
    :func:`harness.running.runner.replay_file_path`)."""
    from harness.running.runner import replay_file_path

    old = finding.replay_path
    if replay_dir is not None and old is not None:
        finding.replay_path = scenario_file.save(
            finding.scenario, replay_file_path(replay_dir, engine_name, finding.key, finding.scenario))
        Path(old).unlink(missing_ok=True)
