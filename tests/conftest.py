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
