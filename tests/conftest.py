"""Shared fixtures: a clean reference engine, board builders, and a Hypothesis profile for CI."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from harness.adapters.reference import ReferenceAdapter

ROOT = Path(__file__).resolve().parent.parent
FORKS = ROOT / "examples" / "forks"

settings.register_profile("ci", deadline=None, suppress_health_check=list(HealthCheck), database=None)
settings.load_profile(os.environ.get("RULESFUZZ_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def default_sigint():
    """Python's default SIGINT handler for the test (pytest-xdist workers ignore SIGINT), restored after."""
    original = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, original)


@pytest.fixture
def reference():
    return ReferenceAdapter()


def board(*objects, life=20):
    """A two-player board from object dicts; ``owner`` defaults to P1."""
    return {
        "players": [{"id": "P1", "life": life}, {"id": "P2", "life": life}],
        "objects": [{"owner": "P1", **o} for o in objects],
    }


def one_error_line(capsys) -> str:
    """The one line a command printed on stderr for bad input (exit 2), asserting it printed
    exactly one non-blank line there and no traceback anywhere."""
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    return lines[0]


@pytest.fixture
def outside_coverage():
    """Pause coverage.py's measurement (``.ci/run`` runs pytest with ``--cov``) for the test, if it is on.

    For the tests that prove a long run finds a bug (the mutant runs, the example forks' runs): they
    take about half of the suite's CPU time, which coverage's tracer makes two to three times slower
    on Python 3.11, while the code they execute (the reference engine the mutants fork, the harness,
    the invariants) is measured through the state machine, invariant and CLI tests. In an xdist
    worker ``Coverage.stop()`` stops recording but leaves its tracer installed on the thread, still
    costing nearly as much (and so pytest-cov's ``no_cover`` mark does), hence the
    ``sys.settrace(None)``; ``start()`` installs a new tracer.
    """
    import sys

    import coverage

    measuring = coverage.Coverage.current()
    if measuring is None:
        yield
        return
    measuring.stop()
    sys.settrace(None)
    try:
        yield
    finally:
        measuring.start()


def watching(engine, on_apply):
    """``engine`` (protocol ``Engine``) whose games call ``on_apply(event)`` before each ``apply``:
    for tests that look at the harness's state while an engine call runs."""

    class Watched:
        info = engine.info

        def new_game(self, board):
            game = engine.new_game(board)

            class Game:
                def apply(self, event, decider):
                    on_apply(event)
                    return game.apply(event, decider)

                def observe(self):
                    return game.observe()

            return Game()

    return Watched()
