"""Ctrl-C during a run: a flag set by the SIGINT handler and checked between steps.

Python runs a signal handler between bytecodes of the main thread; when that moment is
inside a garbage-collection callback (Hypothesis installs one), the ``KeyboardInterrupt``
the default handler raises is printed as "Exception ignored" and lost, and the run goes
on. :func:`sigint_flag` installs a handler that also records the request, and
:func:`check` (called by the state machine before every step) raises
``KeyboardInterrupt`` once it is set, so no Ctrl-C is lost. The handler itself raises only
while an engine call runs (:func:`engine_running`: a hanging engine must be interrupted at
once); anywhere else in a run the next :func:`check` or engine call raises it, so a Ctrl-C
never lands inside Hypothesis's own work.

Signals must not interrupt Hypothesis while it draws a choice (a decision the engine
asks for during ``apply``): an exception raised inside a draw leaves Hypothesis with a
choice sequence it can't replay, which it reports as flaky. Within :func:`shielded` the
SIGINT handler only sets the flag, and the step timeout's alarm (``harness.running.execution``)
hands its exception to :func:`defer`: it is raised when the shielded block ends.
"""

from __future__ import annotations

import mmap
import signal
import threading
import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator


class BudgetExhausted(KeyboardInterrupt):
    """The run's wall-time budget (``--max-seconds``) ran out: stops generation, shrinking and reduction.

    A ``KeyboardInterrupt`` because that is what Hypothesis lets through at once, whatever
    it is doing (any other exception would be a test failure to shrink or a flaky one).
    """


class _States:
    """The flags of this module; one instance, :data:`_State` (written at every engine call: an
    instance's attributes, which a write leaves every class's lookups cached)."""

    __slots__ = ("requested", "armed", "deadline", "shield", "deferred", "engine", "monitor", "notify")

    def __init__(self) -> None:
        self.requested = False
        self.armed = False
        self.deadline: float | None = None
        self.shield = 0
        self.deferred: BaseException | None = None
        self.engine = 0
        #: A supervised process's shared monitor (:mod:`harness.running.supervisor`): byte 0 is 1 while
        #: engine code runs; ``notify`` is called when a Ctrl-C is seen.
        self.monitor: mmap.mmap | None = None
        self.notify: Callable[[], object] | None = None


_State = _States()


def monitor_with(shared, notify=None) -> None:
    """Mark engine calls in byte 0 of ``shared`` (an mmap, :mod:`harness.running.supervisor`), and call
    ``notify()`` when a Ctrl-C is seen; None: no more."""
    _State.monitor, _State.notify = shared, notify


def requested() -> bool:
    """Whether the user pressed Ctrl-C (SIGINT) since :func:`sigint_flag` was entered."""
    return _State.requested


def check() -> None:
    """Raise ``KeyboardInterrupt`` if the user asked to stop, :class:`BudgetExhausted` if the
    run's time is up: call between steps."""
    if _State.requested:
        raise KeyboardInterrupt
    if _State.deadline is not None and time.perf_counter() >= _State.deadline:
        raise BudgetExhausted


def remaining() -> float | None:
    """Seconds left of the run's time budget (:func:`deadline`), or None when there is none."""
    return None if _State.deadline is None else max(0.0, _State.deadline - time.perf_counter())


@contextmanager
def deadline(seconds: float | None, since: float | None = None) -> Iterator[None]:
    """Within the block, :func:`check` raises :class:`BudgetExhausted` ``seconds`` (None: never)
    after ``since`` (a ``time.perf_counter()`` reading; None: now)."""
    before = _State.deadline
    _State.deadline = None if seconds is None else (time.perf_counter() if since is None else since) + seconds
    try:
        yield
    finally:
        _State.deadline = before


def is_shielded() -> bool:
    """Whether a :func:`shielded` block is running: a signal handler must not raise now."""
    return _State.shield > 0


def defer(exc: BaseException) -> None:
    """Keep ``exc`` (the first one) to raise when the :func:`shielded` block ends."""
    if _State.deferred is None:
        _State.deferred = exc


def clear_deferred() -> None:
    """Forget a deferred exception (its alarm's block ended: it no longer applies)."""
    _State.deferred = None


def engine_began() -> float | None:
    """Mark an engine call begun (:class:`engine_running`'s entry: inside :func:`armed`, a Ctrl-C
    already requested raises ``KeyboardInterrupt`` here); returns the seconds left of the run's
    time budget (:func:`remaining`), so that the step alarm (``harness.running.execution.time_limit``)
    makes one call, not two, as each engine call begins."""
    state = _State
    if state.requested and state.armed:
        raise KeyboardInterrupt
    state.engine += 1
    if state.monitor is not None:
        state.monitor[0] = 1
    return None if state.deadline is None else remaining()


def engine_ended(clear: bool = False) -> None:
    """Mark an engine call ended (:class:`engine_running`'s exit); with ``clear``, first forget a
    deferred exception (:func:`clear_deferred`: the call's alarm no longer applies)."""
    state = _State
    if clear:
        state.deferred = None
    state.engine -= 1
    if state.monitor is not None and not state.engine:
        state.monitor[0] = 0


class engine_running:
    """A block that calls engine code: inside :func:`armed`, a Ctrl-C raises ``KeyboardInterrupt``
    at once there (out of a hanging engine), and one already requested raises on entry
    (:func:`engine_began`, :func:`engine_ended`). A context manager class, not a generator."""

    __slots__ = ()

    def __enter__(self) -> None:
        engine_began()

    def __exit__(self, exc_type, exc, tb) -> None:
        engine_ended()


@contextmanager
def shielded() -> Iterator[None]:
    """A block no signal handler of the harness raises in (a Hypothesis draw).

    When it ends normally, raises the exception a handler deferred meanwhile
    (:func:`defer`), or ``KeyboardInterrupt`` for a Ctrl-C inside :func:`armed`.
    """
    _State.shield += 1
    shared = _State.monitor
    phase = shared[0] if shared is not None else 0
    if shared is not None and phase == 1:
        shared[0] = 0  # a draw is the harness's code, even inside an engine call
    try:
        yield
    finally:
        _State.shield -= 1
        if shared is not None and phase == 1:
            shared[0] = 1
    if _State.shield == 0:
        exc, _State.deferred = _State.deferred, None
        if exc is not None:
            raise exc
        if _State.requested and _State.armed:
            raise KeyboardInterrupt


@contextmanager
def armed() -> Iterator[None]:
    """Within the block a SIGINT also raises ``KeyboardInterrupt`` at once inside an engine call
    (:func:`engine_running`: e.g. out of a hanging engine)."""
    before = _State.armed
    _State.armed = True
    try:
        check()
        yield
    finally:
        _State.armed = before


@contextmanager
def sigint_flag() -> Iterator[None]:
    """Within the block, SIGINT sets the flag (main thread only); inside :func:`armed` and an
    engine call (:func:`engine_running`) it also raises ``KeyboardInterrupt`` at once.

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
        if _State.notify is not None:
            _State.notify()
        if _State.armed and _State.engine and not _State.shield:  # else the next check() or engine call raises
            raise KeyboardInterrupt

    on_sigint._rulesfuzz_flag = True  # type: ignore[attr-defined]
    _State.requested = False
    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _State.requested = False
