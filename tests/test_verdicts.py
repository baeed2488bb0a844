"""Run verdicts: nothing found is lost, ``run`` and ``replay`` agree, Ctrl-C is never lost."""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from harness.running import interrupts
from harness.interfaces.cli import main
from harness.running.decider import DrawingDecider
from harness.running.execution import EngineFailed, engine_call
from harness.connection.loading import load_engine
from harness.running.runner import run

from .conftest import FORKS, ROOT, watching

REFUSES_BOARDS = '''
from harness.protocol import EngineInfo, IllegalAction


class RefusesBoards:
    """Written from scratch: its new_game raises on any board with an object on it."""

    info = EngineInfo("refuses-boards", "0", frozenset({"destroy"}))

    def new_game(self, board):
        if board["objects"]:
            raise RuntimeError(f"can't set up {board['objects'][0]['card']}")
        return EmptyGame(board)


class EmptyGame:
    def __init__(self, board):
        self.players = {p["id"]: {"life": p.get("life", 20), "lost": False} for p in board["players"]}

    def apply(self, event, decider):
        raise IllegalAction("no_such_object")

    def observe(self):
        return {"players": self.players, "objects": {}, "zones": {"battlefield": []}, "log": []}


class HangsOnBoards(RefusesBoards):
    info = EngineInfo("hangs-on-boards", "0", frozenset({"destroy"}))

    def new_game(self, board):
        while board["objects"]:
            pass
        return EmptyGame(board)


refuses = RefusesBoards()
hangs = HangsOnBoards()
'''


def write_engine(tmp_path) -> str:
    path = tmp_path / "board_engines.py"
    path.write_text(REFUSES_BOARDS)
    return str(path)


def test_an_engine_refusing_a_board_is_a_finding_with_report_and_replay_file(tmp_path, capsys):
    """Was: exit 1 with nothing printed and no replay file, while replay called the same case bad input."""
    spec = f"{write_engine(tmp_path)}:refuses"
    code = main(["run", "--engine", spec, "--max-examples", "20", "--replay-dir", str(tmp_path / "out"),
                 "--database", "none", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "VIOLATION generic.engine_does_not_raise at step 0" in out
    assert "RuntimeError" in out and "can't set up" in out and "Board:" in out
    files = list((tmp_path / "out").glob("*.json"))
    assert len(files) == 1
    scenario = json.loads(files[0].read_text())
    assert scenario["steps"] == [] and len(scenario["board"]["objects"]) == 1  # shrunk to one object
    # replay agrees: the same board is a finding on that engine, and legal on the reference engine.
    assert main(["replay", str(files[0]), "--engine", spec]) == 1
    assert "VIOLATION generic.engine_does_not_raise at step 0" in capsys.readouterr().out
    assert main(["replay", str(files[0]), "--engine", "reference"]) == 0


def test_an_engine_hanging_on_a_board_is_a_finding_in_run_and_in_replay(tmp_path, capsys):
    spec = f"{write_engine(tmp_path)}:hangs"
    code = main(["run", "--engine", spec, "--max-examples", "5", "--replay-dir", str(tmp_path / "out"),
                 "--database", "none", "--quiet", "--step-timeout", "0.2"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "did not return from new_game within 0.2 s" in out
    files = list((tmp_path / "out").glob("*.json"))
    assert main(["replay", str(files[0]), "--engine", spec, "--step-timeout", "0.2"]) == 1


def test_seconds_to_failure_is_set():
    fork = load_engine(f"{FORKS / 'umbra_taps_creature.py'}:engine")
    result = run(fork, max_examples=300, seed=1, database=None, shrink=False)  # the time to find, not to shrink
    assert result.violation is not None
    assert result.seconds_to_failure is not None and 0 < result.seconds_to_failure <= result.seconds
    assert result.examples_to_failure is not None


class SigintInGcCallback:
    """Wraps an engine; at the 30th event a Ctrl-C arrives while a garbage-collection callback runs.

    Python's handler raises KeyboardInterrupt inside the callback, where it is printed as
    "Exception ignored" and lost: the run must still stop.
    """

    def __init__(self, inner):
        self.inner, self.info, self.calls = inner, inner.info, 0

    def new_game(self, board):
        outer, game = self, self.inner.new_game(board)

        class Game:
            def apply(self, event, decider):
                outer.calls += 1
                if outer.calls == 30:
                    def callback(phase, info):
                        if phase == "start":
                            os.kill(os.getpid(), signal.SIGINT)
                            sum(range(1000))  # the handler runs here, inside the callback
                    gc.callbacks.append(callback)
                    try:
                        gc.collect()
                    finally:
                        gc.callbacks.remove(callback)
                return game.apply(event, decider)

            def observe(self):
                return game.observe()

        return Game()


@pytest.fixture
def c_unraisablehook(monkeypatch):
    """Python's own (C) ``sys.unraisablehook`` for the test, not pytest's: an exception raised in a gc
    callback is printed and dropped, and pytest's hook, Python code, can itself be interrupted by the
    next repeated alarm (on a loaded machine it runs long enough), which pytest then reports as
    "Failed to process unraisable exception"."""
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_landing_in_a_gc_callback_is_not_lost(default_sigint, reference, c_unraisablehook):
    engine = SigintInGcCallback(reference)
    result = run(engine, max_examples=400, seed=0, database=None)
    assert result.cut_short == "interrupted"
    assert engine.calls < 100  # stopped at the next step, not at the end of the budget


def test_sigint_on_a_long_run_exits_130_and_says_cut_short(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", "--engine", "reference", "--max-examples", "1000000",
         "--replay-dir", str(tmp_path), "--database", "none", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        # pytest-xdist workers ignore SIGINT and children inherit that: restore the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        ready = proc.stdout.readline()  # the header: printed once Ctrl-C is handled by the run
        assert ready.startswith("rulesfuzz: fuzzing"), ready
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "cut short (interrupted)" in out
    assert "Traceback" not in err


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _alarm_inside_a_gc_callback(then_hang: float, done: list) -> None:
    """An engine's apply: a garbage collection whose callback runs past the step timeout (so
    the alarm's handler runs inside the callback, where its exception is printed and dropped),
    then ``then_hang`` more seconds of work; appends to ``done`` if it ran to its end."""
    def callback(phase, info):
        if phase == "start":
            _busy(0.5)

    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(callback)
    _busy(then_hang)
    done.append(True)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("then_hang", [5.0, 0.0])
def test_a_step_timeout_landing_in_a_gc_callback_is_not_lost(then_hang, c_unraisablehook):
    """Was: the EngineTimeout raised in the callback was dropped and the engine ran on (a hang
    then went unbounded, a slow step passed). The alarm repeats until the call ends, and a call
    that ends after its alarm fired is a timeout all the same."""
    done: list = []
    with pytest.raises(EngineFailed, match=r"did not return from apply within 0.2 s"):
        engine_call("apply", _alarm_inside_a_gc_callback, then_hang, done, timeout=0.2)
    if then_hang:
        assert done == []  # the hang after the callback is cut before its end, not run for its seconds


class SlowDraws:
    """A Hypothesis ``data`` stand-in whose draws take 0.3 s and record whether they finished."""

    def __init__(self):
        self.finished = 0

    def draw(self, strategy, label=None):
        _busy(0.3)
        self.finished += 1
        return "yes"


def test_a_step_timeout_never_interrupts_a_draw():
    """Was: the alarm raised inside Hypothesis's draw of a decision, which Hypothesis then
    reported as flaky data generation (a determinism finding for a --max-seconds deadline).
    The timeout is raised once the draw has finished."""
    data = SlowDraws()
    decider = DrawingDecider(data)

    def apply():
        decider.choose("P1", "may", ["yes", "no"])
        _busy(5.0)

    with pytest.raises(EngineFailed, match="within 0.1 s"):
        engine_call("apply", apply, timeout=0.1)
    assert data.finished == 1


def test_the_time_budget_never_interrupts_a_draw():
    data = SlowDraws()
    decider = DrawingDecider(data)
    with interrupts.deadline(0.1), pytest.raises(interrupts.BudgetExhausted):
        engine_call("apply", lambda: decider.choose("P1", "may", ["yes", "no"]), timeout=10)
    assert data.finished == 1


def test_ctrl_c_raises_at_once_only_inside_an_engine_call(default_sigint):
    """Outside engine calls (in Hypothesis's generation and its draws) a Ctrl-C only sets the
    flag, raised by the next check or engine call: an interrupted draw would be reported by
    Hypothesis as flaky (a determinism finding instead of exit 130). Inside one, it raises at
    once (out of a hanging engine)."""
    with interrupts.sigint_flag(), interrupts.armed():
        os.kill(os.getpid(), signal.SIGINT)
        _busy(0.05)  # the handler has run: no exception here
        assert interrupts.requested()
        with pytest.raises(KeyboardInterrupt):
            interrupts.check()
        with pytest.raises(KeyboardInterrupt):  # and the next engine call doesn't start
            engine_call("apply", lambda: None, timeout=1.0)
    with interrupts.sigint_flag(), interrupts.armed():
        done: list = []

        def hangs():
            os.kill(os.getpid(), signal.SIGINT)
            _busy(5.0)
            done.append(True)

        with pytest.raises(KeyboardInterrupt):
            engine_call("apply", hangs, timeout=10.0)
        assert done == []  # interrupted inside the hang, not after it


def test_within_a_run_the_alarm_handler_stays_installed_and_a_hang_is_still_cut(monkeypatch):
    """A run installs the step alarm's handler once (``alarm_handler``), not per engine call;
    the previous handler is back after the run, and a hanging call inside it still times out.
    On the tiny engine (written from scratch)."""
    from harness.running import execution

    tiny = load_engine("examples/engines/tiny/engine.py:engine")
    handlers: list = []
    installs: list = []
    original_signal = signal.signal

    def counting_signal(signum, handler):
        if signum == signal.SIGALRM:
            installs.append(handler)
        return original_signal(signum, handler)

    before = signal.getsignal(signal.SIGALRM)
    monkeypatch.setattr(signal, "signal", counting_signal)
    result = run(watching(tiny, lambda event: handlers.append(signal.getsignal(signal.SIGALRM))), max_examples=5,
                 seed=0, database=None, explore=True)
    assert result.violation is None and len(handlers) > 5
    assert set(handlers) == {execution._on_alarm}
    assert installs == [execution._on_alarm, before]  # once in, once back: not per call
    assert signal.getsignal(signal.SIGALRM) is before
    with execution.alarm_handler():
        with pytest.raises(EngineFailed, match=r"did not return from apply within 0.2 s"):
            engine_call("apply", _busy, 5.0, timeout=0.2)


def test_a_hang_retrying_under_except_exception_is_still_cut():
    """Was: each repeated alarm raised EngineTimeout inside the hanging call, an ``Exception``
    the engine's own retry loop caught and dropped, so the call ran on until it returned by
    itself (never, for a real hang). The repeat now raises through ``except Exception``."""
    done: list = []

    def retries_for_five_seconds():
        end = time.perf_counter() + 5.0
        while time.perf_counter() < end:
            try:
                _busy(0.01)
            except Exception:  # noqa: BLE001  what the engine under test does
                pass
        done.append(True)

    with pytest.raises(EngineFailed, match=r"did not return from apply within 0.2 s"):
        engine_call("apply", retries_for_five_seconds, timeout=0.2)
    assert done == []  # cut inside its retries, not after five seconds


def test_an_engine_call_inside_an_engine_call_keeps_the_outer_step_timeout():
    """Was: the inner call's end cancelled the alarm and forgot the outer call, so an engine
    that ran a run (or any timed call) inside its own apply and then hung was never cut."""
    done: list = []

    def runs_a_call_then_hangs():
        engine_call("apply", lambda: None, timeout=5.0)
        _busy(5.0)
        done.append(True)

    with pytest.raises(EngineFailed, match=r"did not return from apply within 0.3 s"):
        engine_call("apply", runs_a_call_then_hangs, timeout=0.3)
    assert done == []  # cut inside the hang
