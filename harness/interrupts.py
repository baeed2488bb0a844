"""Ctrl-C during a run: a flag set by the SIGINT handler and checked between steps.

Python runs a signal handler between bytecodes of the main thread; when that moment is
inside a garbage-collection callback (Hypothesis installs one), the ``KeyboardInterrupt``
the default handler raises is printed as "Exception ignored" and lost, and the run goes
on. :func:`sigint_flag` installs a handler that also records the request, and
:func:`check` (called by the state machine before every step) raises
``KeyboardInterrupt`` once it is set, so no Ctrl-C is lost.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class BudgetExhausted(BaseException):
    """The run's wall-time budget (``--max-seconds``) ran out: stops generation, shrinking and reduction."""


class _State:
    requested = False
    armed = False


def requested() -> bool:
    """Whether the user pressed Ctrl-C (SIGINT) since :func:`sigint_flag` was entered."""
    return _State.requested


def check() -> None:
    """Raise ``KeyboardInterrupt`` if the user asked to stop: call between steps."""
    if _State.requested:
        raise KeyboardInterrupt


@contextmanager
def armed() -> Iterator[None]:
    """Within the block a SIGINT also raises ``KeyboardInterrupt`` at once (e.g. out of a hanging engine)."""
    before = _State.armed
    _State.armed = True
    try:
        check()
        yield
    finally:
        _State.armed = before


@contextmanager
def sigint_flag() -> Iterator[None]:
    """Within the block, SIGINT sets the flag (main thread only); inside :func:`armed` it also
    raises ``KeyboardInterrupt`` at once.

    Where SIGINT is ignored (e.g. in pytest-xdist workers) it stays ignored; the previous
    handler is restored on exit. Nested uses keep the outer flag.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous in (signal.SIG_IGN, None) or getattr(previous, "_rulesfuzz_flag", False):
        yield
        return

    def on_sigint(signum, frame):
        _State.requested = True
        if _State.armed:  # else the next check() raises, where the caller expects it
            raise KeyboardInterrupt

    on_sigint._rulesfuzz_flag = True  # type: ignore[attr-defined]
    _State.requested = False
    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _State.requested = False
