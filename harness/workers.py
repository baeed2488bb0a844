"""One run over several processes (``--workers N``) and several CI jobs (``--shard K/N``).

A run is cut into **slots**: ``--shard K/N`` with ``--workers W`` is slots ``(K-1)*W``
to ``K*W - 1`` of ``N*W``. Slot ``i`` of ``T`` fuzzes its share of ``--max-examples``
(the budget is the whole run's total: ``max_examples // T``, one more for the first
``max_examples % T`` slots) with its own seed :func:`slot_seed`, in its own process
(one slot runs in this process). So ``--shard 1/2`` and ``--shard 2/2`` together are
``--workers 2``, and the same seed and slots give the same findings.

Each slot reads the example database as it was when its run started and writes its
failures back when it ends (:class:`harness.databases.BufferedDatabase`): slots of one
run never replay each other's failures mid-run (which would make findings depend on
timing), and the next run of any shard (a shared Redis database) replays all of them
first. ``--max-seconds`` bounds each slot's wall time (slots run at the same time).

Findings are merged as ``--keep-going`` merges them: one per finding key, the smallest
shrunk scenario of the key (the lowest slot on a tie), the others counted as repeats.
Each slot writes its replay files under ``<replay_dir>/.slot-<i>-of-<T>``; the merged findings
are then saved in ``replay_dir`` (:func:`harness.runner.replay_file_path`) and the
slot folders removed, unless a slot left a pending file there (a killed process).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import sys
import time
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from . import scenario as scenario_file
from .execution import Stats
from .findings import scenario_size


class SlotError(ValueError):
    """A bad ``--workers`` or ``--shard`` value; the message says which and what is accepted."""


@dataclass(frozen=True)
class Slot:
    """Slot ``index`` (0-based) of ``total``: ``examples`` to generate with ``seed``."""

    index: int
    total: int
    examples: int
    seed: int


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


def slots(max_examples: int, seed: int, workers: int = 1, shard: tuple[int, int] | None = None) -> list[Slot]:
    """The slots this process runs: the ``workers`` slots of ``shard`` (K, N) (default 1/1),
    each with its share of ``max_examples`` (the run's total); slots with no example are left out."""
    k, n = shard or (1, 1)
    total = n * workers
    chosen = []
    for index in range((k - 1) * workers, k * workers):
        examples = max_examples // total + (index < max_examples % total)
        if examples:
            chosen.append(Slot(index, total, examples, slot_seed(seed, index, total)))
    return chosen


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
    options: dict  # the other keyword arguments of harness.runner.run


def run_slot(job: SlotJob):
    """Run one slot (in a worker process or this one); returns its :class:`harness.runner.RunResult`.

    The database is read as it was at the start and written at the end
    (:class:`~harness.databases.BufferedDatabase`); replay files go to the slot's folder.
    """
    from .databases import BufferedDatabase
    from .loading import load_engine
    from .runner import database_from, run

    slot = job.slot
    timeout = job.options.get("step_timeout", 10.0)
    engine = load_engine(job.engine, step_timeout=timeout, isolate=job.isolate)
    against = load_engine(job.against, step_timeout=timeout) if job.against else None
    shared = database_from(job.database)
    database = BufferedDatabase(shared) if shared is not None else None
    label = f"worker {slot.index + 1}/{slot.total}"

    def progress(line: str) -> None:
        if not job.quiet:
            print(f"[{label}] {line.strip()}", file=sys.stderr, flush=True)

    try:
        return run(engine, max_examples=slot.examples, seed=slot.seed, database=database, progress=progress,
                   against=against, replay_dir=slot_folder(job.replay_dir, slot), **job.options)
    finally:
        if database is not None:
            database.flush()
        for item in (engine, against):
            close = getattr(item, "close", None)
            if callable(close):
                close()


def slot_folder(replay_dir, slot: Slot) -> Path | None:
    """Where slot ``slot`` writes its replay files before they are merged."""
    return Path(replay_dir) / f".slot-{slot.index + 1}-of-{slot.total}" if replay_dir is not None else None


class WorkerFailed(RuntimeError):
    """A worker process ended without a result: it raised (the message has its traceback), or it
    died (the engine ended or crashed the process: ``--isolate`` makes that a finding)."""


def _slot_process(job: SlotJob, conn, started=None) -> None:
    """The body of a worker process: run the slot and send back ``("ok", result)`` or ``("error", text)``;
    ``started`` (a multiprocessing Event) is set first, so that a Ctrl-C is passed on only to a
    worker that can end with what it found."""
    import traceback

    try:
        if started is not None:
            started.set()
        conn.send(("ok", run_slot(job)))
    except KeyboardInterrupt:
        conn.send(("interrupted", None))
    except BaseException:  # noqa: BLE001  sent to the parent, which reports it
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def run_slots(jobs: list[SlotJob], engine_name: str):
    """Run ``jobs`` (one process each when more than one) and merge them into one :class:`RunResult`.

    A Ctrl-C of this process (:mod:`harness.interrupts`) is passed on to every worker, which
    ends with what it found (a Ctrl-C at a terminal reaches them all anyway); the merge then
    runs as usual (:func:`collect`). Raises :class:`WorkerFailed` when a worker ends without a
    result, and ``KeyboardInterrupt`` when every worker was interrupted before its run started.
    """
    started = time.perf_counter()
    results, interrupted = ([run_slot(jobs[0])], False) if len(jobs) == 1 else _run_processes(jobs)
    merged = merge(results, engine_name, jobs[0].replay_dir, [job.slot for job in jobs])
    if interrupted:
        merged.cut_short = "interrupted"
    merged.seconds = time.perf_counter() - started
    return merged


def _run_processes(jobs: list[SlotJob]) -> tuple[list, bool]:
    import signal
    from multiprocessing.connection import wait

    from . import interrupts

    context = get_context("spawn")
    workers, started = [], []
    for job in jobs:
        receiver, sender = context.Pipe(duplex=False)
        started.append(context.Event())
        process = context.Process(target=_slot_process, args=(job, sender, started[-1]),
                                  name=f"rulesfuzz-slot-{job.slot.index + 1}")
        process.start()
        sender.close()
        workers.append((process, receiver))
    answers: dict[int, tuple] = {}
    forwarded = False
    try:
        while len(answers) < len(workers):
            if interrupts.requested() and not forwarded:
                forwarded = True
                for (process, _), began in zip(workers, started):
                    if not process.is_alive():
                        continue
                    if began.is_set():  # it ends its run with what it found
                        os.kill(process.pid, signal.SIGINT)
                    else:  # still starting (a traceback of its imports, nothing found): stop it quietly
                        process.terminate()
            waiting = {receiver: i for i, (_, receiver) in enumerate(workers) if i not in answers}
            for receiver in wait(list(waiting), timeout=0.2):
                i = waiting[receiver]
                try:
                    answers[i] = receiver.recv()
                except EOFError:
                    workers[i][0].join()
                    answers[i] = ("died", workers[i][0].exitcode)
    finally:
        for process, receiver in workers:
            process.join(timeout=None if len(answers) == len(workers) else 0)
            if process.is_alive():
                process.terminate()
                process.join()
            receiver.close()
    return collect(answers, jobs, forwarded)


def collect(answers: dict[int, tuple], jobs: list[SlotJob], interrupted: bool = False) -> tuple[list, bool]:
    """The results of the workers' ``answers`` (job index -> ``("ok", RunResult)``,
    ``("interrupted", None)``, ``("error", traceback)`` or ``("died", exit code)``) and
    whether the run was interrupted (``interrupted``: a Ctrl-C was passed on to them).

    A worker interrupted before its run had a result (still starting when the Ctrl-C came)
    adds nothing, and the others' findings are kept: nothing found is lost. Raises
    ``KeyboardInterrupt`` when no worker has a result, and :class:`WorkerFailed` for a
    worker that raised, or died when no Ctrl-C was passed on.
    """
    results, cut = [], interrupted
    for i, (kind, value) in sorted(answers.items()):
        where = f"worker {jobs[i].slot.index + 1}/{jobs[i].slot.total}"
        if kind == "interrupted" or (kind == "died" and interrupted):
            cut = True
            continue
        if kind == "died":
            raise WorkerFailed(f"{where} ended without a result (exit code {value}): the engine ended or crashed "
                               f"its process; run with --isolate to make that a finding (files so far are in "
                               f"{slot_folder(jobs[i].replay_dir, jobs[i].slot)})")
        if kind == "error":
            raise WorkerFailed(f"{where} failed:\n{value}")
        results.append(value)
    if cut and not results:
        raise KeyboardInterrupt
    return results, cut


def run_workers(engine: str, *, workers: int = 1, max_examples: int = 200, seed: int = 0,
                shard: tuple[int, int] | None = None, against: str | None = None, database: str | None = "none",
                replay_dir=None, isolate: bool = False, quiet: bool = True, **options):
    """Fuzz the engine named by the spec ``engine`` (as ``--engine``) in slots, as ``rulesfuzz run
    --workers --shard`` does; returns the merged :class:`harness.runner.RunResult`.

    ``database`` is a ``--database`` spec (``"none"``: no example database); ``options`` are
    the other keyword arguments of :func:`harness.runner.run` (``max_seconds``,
    ``steps_per_example``, ``keep_going``, ``step_timeout``, ``invariant_names``...). Raises
    :class:`SlotError` when the shard has no example, :class:`WorkerFailed` when a worker
    ends without a result.
    """
    chosen = slots(max_examples, seed, workers, shard)
    if not chosen:
        raise SlotError(f"--max-examples {max_examples} leaves this part of the run no example")
    jobs = [SlotJob(slot, engine, against, database, str(replay_dir) if replay_dir is not None else None, isolate,
                    quiet, dict(options)) for slot in chosen]
    return run_slots(jobs, _engine_name(engine))


def _engine_name(spec: str) -> str:
    from .loading import load_engine

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
    from . import rule_coverage
    from .runner import RunResult, replay_file_path

    merged = RunResult(engine_name, merge_stats([r.stats for r in results]),
                       invariants=list(results[0].invariants) if results else [])
    merged.rule_coverage = rule_coverage.merge_reports([r.rule_coverage for r in results])
    chosen: dict[str, object] = {}
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
    for finding in chosen.values():
        old = finding.replay_path
        if replay_dir is not None and old is not None:
            finding.replay_path = scenario_file.save(
                finding.scenario, replay_file_path(replay_dir, engine_name, finding.key, finding.scenario))
            Path(old).unlink(missing_ok=True)
        merged.findings.append(finding)
    for finding in others:
        if finding.replay_path is not None:
            Path(finding.replay_path).unlink(missing_ok=True)
    if replay_dir is not None:
        for slot in slot_list:
            folder = slot_folder(replay_dir, slot)
            if folder.is_dir() and not any(folder.iterdir()):
                shutil.rmtree(folder, ignore_errors=True)
    cuts = {r.cut_short for r in results}
    merged.cut_short = "interrupted" if "interrupted" in cuts else ("time budget" if "time budget" in cuts else None)
    merged.also_seen = list(dict.fromkeys(k for r in results for k in r.also_seen if k not in chosen))
    return merged
