"""The step alarm set once for many engine calls still bounds each call by its own limit.

Within a run (``alarm_handler``) an engine call leaves the timer set when it ends, and the next
call sets it only when it is not set or set to ring after that call's limit
(:class:`harness.running.execution.time_limit`). These cases check the limits the calls had
before: a short call after a long one is cut at its own limit; a call after many short ones is
cut at its own limit, not earlier (an alarm of an earlier call rings early and is set again);
an alarm ringing between calls raises nothing; the timer is stopped when the run's block ends.
"""

from __future__ import annotations

import contextlib
import signal
import time

import pytest

from harness.running import execution
from harness.running.execution import EngineFailed, engine_call


def _busy(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_short_limit_after_a_long_one_is_kept():
    with execution.alarm_handler():
        assert engine_call("observe", _busy, 0.01, timeout=30.0) is None
        with pytest.raises(EngineFailed, match=r"did not return from apply within 0.2 s"):
            engine_call("apply", _busy, 5.0, timeout=0.2)
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_an_early_alarm_of_an_earlier_call_is_set_again_for_the_call_that_runs():
    with execution.alarm_handler():
        for _ in range(3):  # each leaves the timer set to ring 0.3 s after it started
            engine_call("observe", _busy, 0.05, timeout=0.3)
        assert engine_call("apply", _busy, 0.4, timeout=0.6) is None  # rings early (the first call's), not cut
        with pytest.raises(EngineFailed, match=r"did not return from apply within 0.3 s"):
            engine_call("apply", _busy, 5.0, timeout=0.3)


def test_an_alarm_between_calls_raises_nothing_and_stops_the_timer():
    with execution.alarm_handler():
        engine_call("observe", _busy, 0.01, timeout=0.1)
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0  # left set by the call
        _busy(0.3)  # it rings here, outside any call
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_outside_a_run_each_call_stops_its_timer():
    engine_call("observe", _busy, 0.01, timeout=10.0)
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_call_from_another_thread_within_a_run_is_not_timed():
    """Only the main thread is timed (SIGALRM reaches it alone): a call from another thread while
    the run's handler is installed neither sets the timer nor is cut at its limit."""
    import threading

    outcome = []

    def call_in_a_thread():
        outcome.append(engine_call("apply", _busy, 0.3, timeout=0.05))
        outcome.append(signal.getitimer(signal.ITIMER_REAL)[0])

    with execution.alarm_handler():
        worker = threading.Thread(target=call_in_a_thread)
        worker.start()
        worker.join()
    assert outcome == [None, 0]


def test_each_call_of_one_engines_calls_has_its_own_limit_after_a_timeout():
    """``EngineCalls`` enters one ``time_limit`` block again for each call: a call after one cut at
    its limit starts afresh (the alarm that cut the first is not raised again when the second ends),
    within a run and outside one (where each call stops its own timer); the output kept is the
    last call's."""
    calls = execution.EngineCalls(0.2)
    for run in (execution.alarm_handler, contextlib.nullcontext):
        with run():
            with pytest.raises(EngineFailed, match=r"did not return from apply within 0.2 s"):
                calls.call("apply", _busy, 5.0)
            assert calls.call("observe", print, "seen") is None
            assert calls.output == "seen\n"
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
