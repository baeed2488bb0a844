"""A supervised run: an engine that ends the fuzzing process is a finding, not the end of rulesfuzz.

``rulesfuzz run`` (the command, :func:`harness.interfaces.console.main`) forks: the child fuzzes as an
unsupervised run does, the parent (the *supervisor*) only waits for it (libFuzzer's fork
mode, without the re-imports of a new interpreter: a fork costs a few milliseconds). The
child tells the supervisor what it is doing through a small shared file, mapped in both
(:class:`Monitor`), at the cost of a memory write per engine call:

- byte :data:`PHASE`: ``ENGINE`` while the engine's code runs (every engine call,
  :class:`harness.running.interrupts.engine_running`; a decision the engine asks for, a Hypothesis
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
the run's process when the worker dies (:mod:`harness.running.workers`). ``--unsupervised``, and
:func:`harness.interfaces.cli.main` called as a library, run in the process as before.
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass

from harness.running.monitor import (
    ENGINE,
    INTERRUPTED,
    LOADING,
    ChildState,
    Monitor,
    attach,
    new_monitor_file,
)  # noqa: F401


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
    from harness.reporting.findings import CRASH

    return f"{CRASH}[exit {exit_code}]"


def crash_scenario(state: ChildState, exit_code: int, where: str = "fuzzing process"):
    """The finding of an engine that ended the ``where`` with ``exit_code`` in the last example of
    ``state``: (violations, scenario dict) with the board and the events up to the crashing call
    (its decisions as far as they were recorded), or None without a recorded board."""
    from harness.running import scenario as scenario_file
    from harness.reporting.findings import CRASH, crash_site_message
    from harness.protocol import Violation

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
    from harness.running import scenario as scenario_file
    from harness.running.runner import replay_file_path

    if replay_dir is None:
        return None
    try:
        return scenario_file.save(scenario, replay_file_path(replay_dir, engine_name, key, scenario))
    except OSError as exc:
        print(f"rulesfuzz: error: the replay file could not be written in {replay_dir}: {exc}", file=sys.stderr)
        return None


# ---------------------------------------------------------------------- the supervisor

def supervise(args, run_child, report_end) -> int:
    """Run ``run_child()`` (the run, returning its exit code) in a forked child and return the
    run's exit code (module docstring); a child that ends without finishing is reported by
    ``report_end(args, code, state, verdict)`` (:func:`harness.interfaces.supervised_end.report_end`,
    passed in so that this module imports nothing that imports :mod:`harness.running.workers`).
    Without ``os.fork`` (Windows) the run is in this process."""
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
        return _wait(args, pid, Monitor(path), report_end)
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


def _wait(args, pid: int, monitor: Monitor, report_end) -> int:
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
