"""A supervised run: an engine that ends the fuzzing process is a finding, not the end of rulesfuzz.

``rulesfuzz run`` (the command, :func:`harness.console.main`) forks: the child fuzzes as an
unsupervised run does, the parent (the *supervisor*) only waits for it (libFuzzer's fork
mode, without the re-imports of a new interpreter: a fork costs a few milliseconds). The
child tells the supervisor what it is doing through a small shared file, mapped in both
(:class:`Monitor`), at the cost of a memory write per engine call:

- byte :data:`PHASE`: ``ENGINE`` while the engine's code runs (every engine call,
  :class:`harness.interrupts.engine_running`; a decision the engine asks for, a Hypothesis
  draw, is the harness's again), ``LOADING`` while the engine loads, else ``HARNESS``;
- byte :data:`FINISHED` and the code after it: the run ended and returned its exit code
  (set just before the child's ``main`` returns);
- the current example as lines (:meth:`Monitor.board` when a game starts, :meth:`Monitor.event`
  before each event, :meth:`Monitor.step` with its decisions after it): the board and the
  events up to the call the process ended in, kept in the page cache when the process dies
  (an ``os._exit``, a signal, an out-of-memory kill).

When the child ends, :func:`verdict` decides the run's outcome: a finished run's own exit
code; an end while the engine's code ran is a finding (exit 1): the key
``generic.engine_does_not_raise[exit N]`` (a signal N is 128+N, as ``--isolate`` names it),
its replay file the last example's board and events (:func:`crash_scenario`); an end while the
engine loaded is an engine that can't load (exit 2); an end anywhere else is rulesfuzz's
own failure (exit 3), the last example kept as a replay file too. The supervisor writes the
``--json`` and ``--junit-xml`` reports then (status ``findings`` or ``failed``).

``--workers N``: each worker process has its own monitor (:func:`new_monitor_file`), read by
the run's process when the worker dies (:mod:`harness.workers`). ``--unsupervised``, and
:func:`harness.cli.main` called as a library, run in the process as before.
"""

from __future__ import annotations

import json
import mmap
import os
import signal
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

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

    def board(self, board: dict) -> None:
        """A new game starts on ``board``: the record is this example's from here on."""
        self._end = self._start
        self._full = False
        self._append(b"B", board)

    def event(self, event: dict) -> None:
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
    def state(self) -> "ChildState":
        length = struct.unpack_from("<i", self.map, LENGTH)[0]
        meta, board, steps = None, None, []
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
#: writers where a game starts and an event is applied (:mod:`harness.execution`).
ACTIVE: Monitor | None = None


def attach(path: str) -> Monitor:
    """Monitor this process (a supervised child or a worker) through the file ``path``."""
    global ACTIVE
    from . import interrupts

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


def exit_code_of(status: int) -> int:
    """A process's exit code as a shell shows it: a signal N is 128+N."""
    code = os.waitstatus_to_exitcode(status) if status >= 0 and hasattr(os, "waitstatus_to_exitcode") else status
    return 128 - code if code < 0 else code


def describe_exit(code: int) -> str:
    """``exit 139 (SIGSEGV)``, ``exit 3``."""
    if code > 128:
        try:
            return f"exit {code} ({signal.Signals(code - 128).name})"
        except ValueError:
            pass
    return f"exit {code}"


@dataclass(frozen=True)
class Verdict:
    """How a monitored process's end is reported: ``kind`` ``finished`` (its own code),
    ``finding`` (exit 1), ``engine_load`` (exit 2) or ``failed`` (exit 3)."""

    kind: str
    code: int


def verdict(exit_code: int, state: ChildState) -> Verdict:
    """The outcome of a supervised run whose fuzzing process ended with ``exit_code`` (a shell's:
    a signal N is 128+N) having said ``state``. Never 0 unless the process finished its run."""
    if state.finished is not None:
        return Verdict("finished", state.finished)
    if state.phase == ENGINE:
        return Verdict("finding", 1)
    if state.phase == LOADING:
        return Verdict("engine_load", 2)
    return Verdict("failed", 3)


def crash_key(exit_code: int) -> str:
    """The finding key of an engine that ended its process with ``exit_code``, as ``--isolate`` has it."""
    from .findings import CRASH

    return f"{CRASH}[exit {exit_code}]"


def crash_scenario(state: ChildState, exit_code: int, where: str = "fuzzing process"):
    """The finding of an engine that ended the ``where`` with ``exit_code`` in the last example of
    ``state``: (violations, scenario dict) with the board and the events up to the crashing call
    (its decisions as far as they were recorded), or None without a recorded board."""
    from . import scenario as scenario_file
    from .findings import CRASH, crash_site_message
    from .protocol import Violation

    if state.board is None:
        return None
    steps = [dict(s) for s in state.steps]
    for step in steps:
        if not step.get("decisions"):
            step.pop("decisions", None)
    index = len(steps)
    call = f"apply({steps[-1]['event'].get('type')}) of step {index} or the observe after it" if steps else "new_game"
    message = (f"the engine ended the {where} ({describe_exit(exit_code)}) in {call}: an in-process engine "
               f"must raise, not exit or crash its process")
    violations = [Violation(CRASH, index, (message, crash_site_message(f"exit {exit_code}")))]
    meta = state.meta or {}
    scenario = scenario_file.build(state.board, steps, violations, None, meta.get("seed"))
    if meta.get("name"):
        scenario["engine"] = {"name": meta["name"], "version": meta.get("version", "")}
    scenario["key"] = crash_key(exit_code)
    return violations, scenario


def save_scenario(replay_dir, engine_name: str, key: str, scenario: dict):
    """Save ``scenario`` as ``key``'s replay file in ``replay_dir`` (never overwriting another); its path."""
    from . import scenario as scenario_file
    from .runner import replay_file_path

    if replay_dir is None:
        return None
    try:
        return scenario_file.save(scenario, replay_file_path(replay_dir, engine_name, key, scenario))
    except OSError as exc:
        print(f"rulesfuzz: error: the replay file could not be written in {replay_dir}: {exc}", file=sys.stderr)
        return None


class _Info:
    def __init__(self, name: str, version: str):
        self.name, self.version = name, version


class _Named:
    """An engine's name and version only, for the reports the supervisor writes (it never loads the engine)."""

    def __init__(self, name: str, version: str):
        self.info = _Info(name, version)


# ---------------------------------------------------------------------- the supervisor

def supervise(args, run_child) -> int:
    """Run ``run_child()`` (the run, returning its exit code) in a forked child and return the
    run's exit code (module docstring). Without ``os.fork`` (Windows) the run is in this process."""
    if not hasattr(os, "fork"):
        return run_child()
    path = new_monitor_file()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the fuzzing process
        code, monitor = 3, None
        try:
            monitor = attach(path)
            args.supervised = True
            code = run_child()
            return code
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            if monitor is not None:
                monitor.finished(code)
    try:
        return _wait(args, pid, Monitor(path))
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def _terminal_delivers_to_child() -> bool:
    """Whether a SIGINT this process got came from its terminal's Ctrl-C, which the child (in
    the same process group) got too: this process is in the terminal's foreground group."""
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def _wait(args, pid: int, monitor: Monitor) -> int:
    """Wait for the child ``pid``, passing signals on, and report how it ended."""
    import time

    pending = {"sigint_at": None, "terminated": None}

    def on_sigint(signum, frame):
        if _terminal_delivers_to_child():  # the child has its own; passed on below if it never saw it
            pending["sigint_at"] = time.monotonic()
        else:
            _kill(pid, signal.SIGINT)

    def on_terminate(signum, frame):
        pending["terminated"] = signum
        _kill(pid, signum)

    previous = {sig: signal.signal(sig, handler) for sig, handler in
                ((signal.SIGINT, on_sigint), (signal.SIGTERM, on_terminate), (signal.SIGHUP, on_terminate))
                if signal.getsignal(sig) is not signal.SIG_IGN}  # ignored (a background job, nohup): it stays so
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if pending["sigint_at"] is not None and time.monotonic() - pending["sigint_at"] > 1.0:
                pending["sigint_at"] = None
                if not monitor.map[INTERRUPTED]:  # a `kill -INT` of this process alone: pass it on
                    _kill(pid, signal.SIGINT)
            time.sleep(0.02)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    code = exit_code_of(status)
    state = monitor.state()
    monitor.close()
    if pending["terminated"] is not None and state.finished is None:  # stopped on request: no finding
        print(f"rulesfuzz: terminated ({signal.Signals(pending['terminated']).name})", file=sys.stderr)
        return 128 + pending["terminated"]
    judged = verdict(code, state)
    if judged.kind == "finished":
        return judged.code
    return report_end(args, code, state, judged)


def _kill(pid: int, sig) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def report_end(args, code: int, state: ChildState, judged: Verdict) -> int:
    """Print and write (``--json``, ``--junit-xml``) the outcome of a fuzzing process that ended
    with ``code`` without finishing its run; returns the run's exit code."""
    from . import report, run_options
    from .execution import Stats
    from .findings import Finding
    from .runner import RunResult

    meta = state.meta or {}
    name = meta.get("name") or str(args.engine)
    engine = _Named(name, meta.get("version", ""))
    against = _Named(str(args.against), "") if getattr(args, "against", None) else None
    replay = report.replay_command(args.engine, getattr(args, "against", None))
    result = RunResult(name, Stats())
    if judged.kind == "engine_load":
        print(f"rulesfuzz: error: engine {args.engine} ended the process while loading ({describe_exit(code)})",
              file=sys.stderr)
        return 2
    if judged.kind == "finding":
        found = crash_scenario(state, code)
        key = crash_key(code)
        if found is None:  # engine code outside a game (its info, closing it): no scenario to replay
            from .protocol import Violation

            violations = [Violation("generic.engine_does_not_raise", 0,
                                    (f"the engine ended the fuzzing process ({describe_exit(code)}) outside a game",))]
            scenario = {"board": {"players": [], "objects": []}, "steps": []}
        else:
            violations, scenario = found
        finding = Finding(key, violations, scenario)
        finding.notes.append("the engine ended the fuzzing process: the run stopped here (run with --isolate to go "
                             "on past it, each crash a finding)")
        if found is not None:
            finding.replay_path = save_scenario(args.replay_dir, name, key, scenario)
        known = {}
        if getattr(args, "baseline", None):
            from . import baseline as baseline_file

            try:
                known = baseline_file.load(args.baseline)
            except baseline_file.BaselineError:
                known = {}
        finding.known = known.get(key) or known.get("generic.engine_does_not_raise")
        replay += " --isolate"  # replayed in a child process: the crash is a finding there too
        result.findings.append(finding)
        result.cut_short = "process ended"
        print()
        print(report.describe_finding(finding, replay))
        print()
        print(report.describe_findings_table(result.findings))
        print(f"\nThe fuzzing process ended ({describe_exit(code)}) while the engine's code ran: a finding "
              f"(the run stopped there).", flush=True)
        status, error = "findings", None
    else:
        found = crash_scenario(state, code)
        kept = None
        if found is not None:
            scenario = found[1]
            scenario.pop("violation", None)
            scenario["key"] = f"rulesfuzz-failed[exit {code}]"
            kept = save_scenario(args.replay_dir, name, scenario["key"], scenario)
        error = (f"the fuzzing process ended ({describe_exit(code)}) outside the engine's code: a bug of rulesfuzz "
                 f"{report.version()}, not of your engine; please report it with the command line"
                 + (f" and the last example, kept in {kept}" if kept else ""))
        print(f"rulesfuzz: error: {error}", file=sys.stderr, flush=True)
        status = "failed"
    try:
        run_options.write_reports(args, result, engine, against, status, replay, error=error)
    except run_options.ReportNotWritten as exc:
        print(f"rulesfuzz: error: {exc}", file=sys.stderr)
    return 1 if judged.kind == "finding" else 3


def worker_death(state: ChildState, code: int, replay_dir, engine_name: str, where: str):
    """The finding of a ``--workers`` process that died while its engine's code ran (``state``,
    ``code``): (key, violations, scenario, replay file) or None when it died elsewhere or
    recorded no game."""
    if verdict(code, state).kind != "finding":
        return None
    found = crash_scenario(state, code, where)
    if found is None:
        return None
    violations, scenario = found
    key = crash_key(code)
    return key, violations, scenario, save_scenario(replay_dir, engine_name, key, scenario)
