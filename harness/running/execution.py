"""Driving one game through the protocol: apply events, observe, check invariants.

A :class:`Session` is what both the state machine and ``rulesfuzz replay`` use, so a
scenario is judged the same way whether it was generated or written by hand.
"""

from __future__ import annotations

import io
import signal
import sys
import threading
import time
from signal import ITIMER_REAL, getitimer, setitimer
from threading import get_ident
from time import perf_counter
from collections.abc import Callable
from contextlib import contextmanager
from operator import itemgetter
from types import FrameType
from typing import Any, cast

from hypothesis.errors import HypothesisException, StopTest

from invariants import views
from invariants.generic import json_problem, observation_problems
from invariants.on_change import trust_identity

from harness.running import interrupts, monitor as supervisor
from harness.reporting.findings import CRASH, crash_site_message
from harness.reporting.rule_coverage import count_each
from harness.running.invariant_schedule import schedule
from harness.running.decider import REFERENCE_ONLY, BadDecisionRequest, ReplayDecider, ReplayDiverged
from harness.running.oracle import Oracle
from harness.protocol import (BoardSpec, Engine, Event, Game, IllegalAction, Observation, ScenarioRun, Transition,
                              Unsupported, Violation)
from harness.wire.plain import plain
from harness.connection.rpc import EngineTimeout  # noqa: F401  (defined with the engine's process; raised here too)
# What a game's run is judged with, each in a module of its own (re-exported: their old home).
from harness.running.game_errors import BoardRejected, Declined, EngineFailed, NotAGame, _site  # noqa: F401
from harness.running.observation_copies import _containers, _plain_copy, shares_parts  # noqa: F401
from harness.running.run_stats import (NEVER_ACCEPTED, REFUSED_SHARE, Stats, _aims_at_gone,  # noqa: F401
                                       _claimed_events, _interaction)


class OutputTail(io.TextIOBase):
    """A write-only text stream that keeps the last :attr:`LIMIT` characters written to it.

    Engine output during one call is captured here, so an engine that prints thousands of
    lines per event costs memory of one tail, and a finding shows only that tail. A new one
    is made for every engine call: it has no ``__init__`` (its text is the class's empty one
    until written).
    """

    LIMIT = 2000
    _text = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._text = (self._text + text)[-self.LIMIT:]
        return len(text)

    def tail(self) -> str:
        return self._text

    def __del__(self) -> None:
        """Nothing: a sink is never closed, so dropping it skips ``io.IOBase`` 's finalizer (which closes the stream:
        a flush and an attribute written; half of a sink's cost). An engine that kept ``sys.stdout`` writes to it
        as before; the tail is read by then."""


#: Exceptions of the harness itself that may cross an engine call (a decider's, Hypothesis's
#: own control flow, the run's time budget): never blamed on the engine.
HARNESS_CONTROL = (ReplayDiverged, BadDecisionRequest, HypothesisException, StopTest, interrupts.BudgetExhausted)


#: Seconds between repeated alarms once the limit is reached, until the block ends.
ALARM_REPEAT = 0.05


class _CutShort(BaseException):
    """A repeated alarm inside a hanging engine call, carrying the block's exception.

    Not an ``Exception``: an engine that retries in a loop under ``except Exception`` would
    swallow an :class:`EngineTimeout` at every repeat and never return. :class:`time_limit`
    raises the carried exception when its block ends."""

    def __init__(self, exc: BaseException):
        super().__init__(exc)
        self.exc = exc


class _BlockState:
    """The engine call the step alarm now times (None between calls), and whether the alarm's handler stays
    installed (``resident``: inside :func:`alarm_handler`), so that the timer may stay set between calls
    (:class:`time_limit`). One instance, :data:`_Block` (written at every engine call: an instance's
    attributes, which a write leaves every class's lookups cached)."""

    __slots__ = ("current", "resident", "thread")

    def __init__(self) -> None:
        self.current: "time_limit | None" = None  # noqa: UP037  (quoted: a literal of Hypothesis's constant pool)
        self.resident = False
        #: The thread (``threading.get_ident()``) that installed the resident handler: the main thread.
        self.thread: int | None = None


_Block = _BlockState()


def _on_alarm(signum, frame) -> None:
    """The SIGALRM handler: the first alarm of a block only marks it; each repeat raises. An
    alarm left set by an earlier call (:class:`time_limit` within :func:`alarm_handler`) is
    stopped between calls and set again for the call that runs, when its own limit is later."""
    block = _Block.current
    if block is None:  # a repeat that raced the end of its block, or an alarm left set by an earlier call
        if _Block.resident:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return
    if block._due is not None and block.fired is None:
        left = block._due - time.perf_counter()
        if left > 0:  # set by an earlier call: this call's limit comes later
            signal.setitimer(signal.ITIMER_REAL, left, ALARM_REPEAT)
            return
    exc = interrupts.BudgetExhausted() if block.budget_first else EngineTimeout(
        f"engine did not return from {block.what} within {block.seconds:g} s")
    if block.fired is None:  # the first alarm only marks the block: a call that ends by itself raises as it
        block.fired = exc  # ends (__exit__), never from inside whatever it runs now (a gc callback)
        return
    if interrupts.is_shielded():
        interrupts.defer(exc)
        return
    raise _CutShort(exc)  # the repeated alarm: the call still runs (a hang), so interrupt it


@contextmanager
def alarm_handler():
    """Within the block the step alarm's SIGALRM handler stays installed, so each engine call
    (:class:`time_limit`) only sets the timer: installing and restoring a handler costs about
    9 µs a call, as much as the rest of an engine call's wrapping. Main thread only (elsewhere
    nothing is timed); the previous handler is restored when the block ends."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    outer, _Block.resident, _Block.thread = _Block.resident, True, threading.get_ident()
    try:
        yield
    finally:
        _Block.resident = outer
        if not outer:  # an alarm left set by the last call must not reach the previous handler
            signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class time_limit:
    """Raise :class:`EngineTimeout` if the block runs longer than ``seconds`` (main thread only).

    If the run's time budget (:func:`harness.running.interrupts.deadline`) ends first, raises
    :class:`harness.running.interrupts.BudgetExhausted` then instead: the budget bounds hanging
    engines too.

    The alarm can't be lost: Python runs the handler wherever the main thread is, and an
    exception raised inside a garbage-collection callback or a finalizer (``__del__``) is
    printed and dropped. So the first alarm only marks the block, which raises when it ends
    normally; the alarm repeats every :data:`ALARM_REPEAT` seconds, and each repeat (the call
    still runs: a hang) raises inside it until the block ends, as a ``BaseException`` an
    engine's ``except Exception`` doesn't catch (the block then raises the alarm's exception). Inside a
    Hypothesis draw (:func:`harness.running.interrupts.shielded`) the exception is deferred to the
    draw's end. The block is an engine call for :func:`harness.running.interrupts.engine_running`
    (a Ctrl-C interrupts it at once). Within :func:`alarm_handler` the handler is not
    installed again for each block. A block inside a block (an engine that runs a run inside
    its own call) hands the outer block its alarm back when it ends. A context manager class,
    not a generator: it wraps every engine call.

    Within :func:`alarm_handler`, a block that is no other block's inner block leaves the timer set when it
    ends: the next one sets it only when it is not set, or set to ring after its own limit (``_due``, a
    ``time.perf_counter()`` reading). An alarm that rings before the limit of the block that runs sets the
    timer again for the rest of it; one that rings between blocks stops the timer (:func:`_on_alarm`). Each
    call keeps its own limit, at the cost of one ``getitimer`` a call instead of two ``setitimer``."""

    __slots__ = ("seconds", "what", "budget_first", "fired", "_timed", "_previous", "_outer",
                 "_outer_timer", "_started", "_due")

    def __init__(self, seconds: float | None, what: str):
        self.seconds, self.what = seconds, what
        self.fired: BaseException | None = None
        self._timed = False
        self._due: float | None = None
        self._previous: Callable[[int, FrameType | None], Any] | int | None = None  # what signal.signal returns

    def __enter__(self) -> "time_limit":  # noqa: UP037  (the same)
        self.fired = None  # set here: a block is entered again once it ended (EngineCalls)
        left = interrupts.engine_began()  # an engine call (interrupts.engine_running), and the budget left
        seconds = self.seconds
        limit = seconds if left is None else min(seconds or left, left)
        block = _Block
        # Within alarm_handler, in its thread (the main one, with setitimer): the checks after ``or`` hold.
        if not limit or not (block.resident and get_ident() == block.thread) and (
                threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer")):
            self._due, self._timed = None, False
            return self
        self.budget_first = left is not None and (not seconds or left < seconds)
        if block.resident and block.current is None:  # the handler is installed: the timer may be set already
            if limit < 0.001:
                limit = 0.001
            self._due, self._timed, self._outer, block.current = perf_counter() + limit, True, None, self
            if not 0 < getitimer(ITIMER_REAL)[0] <= limit:  # not set, or set to ring after the limit
                setitimer(ITIMER_REAL, limit, ALARM_REPEAT)
            return self
        self._due = None
        self._previous = None
        if signal.getsignal(signal.SIGALRM) is not _on_alarm:
            self._previous = signal.signal(signal.SIGALRM, _on_alarm)
        self._timed = True
        self._outer, _Block.current = _Block.current, self
        self._started = time.perf_counter()
        outer = signal.setitimer(signal.ITIMER_REAL, max(limit, 0.001), ALARM_REPEAT)
        self._outer_timer = outer if outer[0] > 0 else None  # an engine call inside an engine call
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        cleared = False  # a deferred exception is forgotten once the block's own alarm is undone
        try:
            if self._due is not None:  # the timer stays set (_on_alarm stops it between calls)
                _Block.current = None
                cleared = True
            elif self._timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                _Block.current = self._outer
                if self._outer_timer is not None:  # the outer call's alarm goes on where it was
                    left = self._outer_timer[0] - (time.perf_counter() - self._started)
                    signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), self._outer_timer[1])
                if self._previous is not None:
                    signal.signal(signal.SIGALRM, self._previous)
                cleared = True
        finally:
            interrupts.engine_ended(cleared)
        if exc_type is _CutShort:  # out of a hang: the alarm's own exception
            raise exc.exc from None
        if self.fired is not None and exc_type is None:  # the block outlived its limit, and the
            raise self.fired  # alarm's exception was dropped on the way


#: The invariant and the name of a :meth:`harness.running.invariant_schedule.Schedule.checks` entry.
_INVARIANT, _NAME = itemgetter(0), itemgetter(1)


class EngineCalls:
    """One engine's calls, one after another (a session's, a replay's), under one ``timeout``:
    :meth:`call` is :func:`engine_call`, with one :class:`time_limit` block entered again by each
    call (they never overlap), and the tail of the last call's output in :attr:`output`."""

    __slots__ = ("_limit", "output")

    def __init__(self, timeout: float | None):
        self._limit = time_limit(timeout, "")
        self.output = ""  # what the last call wrote (its OutputTail's tail)

    def call(self, what: str, function, *args):
        """``function(*args)``, one engine call named ``what``, as :func:`engine_call` says."""
        sink, limit = OutputTail(), self._limit  # a new sink a call: one written to after its call is no one's
        limit.what = what
        saved = sys.stdout, sys.stderr  # contextlib.redirect_stdout's work, for both streams at once
        try:
            sys.stdout = sys.stderr = sink
            with limit:
                return function(*args)
        except (IllegalAction, Unsupported, *HARNESS_CONTROL):
            raise
        except KeyboardInterrupt as exc:
            if interrupts.requested():
                raise
            raise EngineFailed(f"engine raised KeyboardInterrupt in {what} (its own, not a Ctrl-C)",
                               _site(exc)) from None
        except EngineTimeout as exc:
            raise EngineFailed(str(exc), "timeout") from None
        except BaseException as exc:  # noqa: BLE001  SystemExit included: engine code must not end the run
            raise EngineFailed(f"engine raised {type(exc).__name__} in {what}: {exc}", _site(exc)) from None
        finally:
            sys.stdout, sys.stderr = saved
            self.output = sink._text  # its tail(), without the call


def engine_call(what: str, function, *args, timeout: float | None = None):
    """``function(*args)``, one engine call, under ``timeout`` seconds, its stdout and stderr captured.

    Returns its value. ``IllegalAction``, ``Unsupported`` and the harness's own control exceptions
    (:data:`HARNESS_CONTROL`) pass through; anything else the engine raises or does (``SystemExit``, its own
    ``KeyboardInterrupt``, a hang) raises :class:`EngineFailed` naming ``what``, with its crash site
    (:func:`harness.reporting.findings.crash_site`, part of the finding key). A Ctrl-C of the user
    (:mod:`harness.running.interrupts`) propagates as ``KeyboardInterrupt``."""
    return EngineCalls(timeout).call(what, function, *args)


class Session:
    """One game of ``engine`` from ``board``, checked by ``invariants`` after every event.

    ``steps`` records each event with the decisions asked and whether it was refused;
    ``observations`` holds the observation after each step (index 0: the board).
    With ``against`` (differential mode) the same events and decisions also go to that
    engine, and its observation is put in each transition for the differential oracle.
    An engine that raises or hangs in ``new_game``, or whose first observation is
    malformed, leaves the session ``broken`` with ``initial_violations`` (step 0).
    Raises :class:`Declined` if an engine raises :class:`~harness.protocol.Unsupported`
    (from ``new_game`` here, from ``apply`` in :meth:`step`). Every engine call gets its
    own copy of the board or event (JSON data: their dicts and lists, :func:`_plain_copy`, a
    third of ``copy.deepcopy`` 's cost on a board), so an engine that mutates them changes nothing
    the harness records.
    """

    def __init__(self, engine: Engine, board: BoardSpec, invariants, stats: Stats | None = None,
                 step_timeout: float | None = None, against: Engine | None = None):
        self.engine = engine
        self.against = against
        self.board = board
        self.invariants = invariants
        self.stats = stats if stats is not None else Stats()
        self.step_timeout = step_timeout
        self.steps: list[dict] = []
        self.broken = False
        self._calls = EngineCalls(step_timeout)  # the engine's calls (their output's tail: output)
        self._call = self._calls.call
        #: Violations of the board itself (step 0): the engine raised or hung in
        #: ``new_game``, or its first observation is malformed. The session is then broken.
        self.initial_violations: list[Violation] = []
        self.game: Game | None = None
        #: The last observation (a checked one: a step observed malformed breaks the session instead).
        self.observation: Observation = {"players": {}, "objects": {}}  # the first, or _break_at_start's
        #: Whether this game's observations are copied as they arrive: the engine shares its
        #: own state in them (seen at the start, or at a step: :func:`shares_parts`).
        self.copies = False
        #: Whether the game is the reference engine's and says it never changes an observation once
        #: given out (``fresh_observations``): not looked at for shared parts, and an entry that is the
        #: last observation's is taken as unchanged (:func:`invariants.on_change.trust_identity`).
        self.fresh = False
        if not self.stats.claimed:
            self.stats.claimed = _claimed_events(engine)
        if supervisor.ACTIVE is not None:  # a supervised process: the board is kept where a crash can't lose it
            supervisor.ACTIVE.board(board)
        try:
            self.game = self._call("new_game", engine.new_game, _plain_copy(board))  # JSON data, as events
            if not all(callable(getattr(self.game, name, None)) for name in ("apply", "observe")):
                raise NotAGame(f"new_game returned {type(self.game).__name__}, not a game with apply() and "
                               f"observe() (harness.protocol.Game)")
            self.observation = self._call("observe", self.game.observe)
            # An engine that returns its own state (the same dicts each time, changed in place
            # by its next apply) would change what the harness keeps: observed twice, shared
            # dicts or lists show it, and every observation of this game is then copied.
            # The reference engine's game, when it declares it never changes an observation once
            # given out (ReferenceGame.fresh_observations: it gives out an unchanged object's entry
            # again, the very dict), is not looked at for shared parts; any other engine's is,
            # whatever it says of itself.
            self.fresh = _fresh_reference_game(self.game)
            if not self.fresh:
                again = self._call("observe", self.game.observe)
                kept = _containers(self.observation)
                self.copies = any(id(item) in kept and kept[id(item)] is item
                                  for item in _containers(again).values())
            if self.copies:
                self.observation = _plain_copy(self.observation)
        except Unsupported as exc:
            raise Declined(exc.reason, exc.message, 0) from None
        except NotAGame as exc:
            self._break_at_start("generic.observation_shape", [str(exc)])
        except EngineFailed as exc:
            self._break_at_start(CRASH, list(exc.messages))
        else:
            problems = observation_problems(self.observation, reuse=False)
            if not problems and json_problem(self.observation):
                problems = [f"the first observation is not plain JSON: {json_problem(self.observation)}"]
            if problems:
                self._break_at_start("generic.observation_shape", problems)
        self.oracle: Oracle | None = None
        if against is not None and not self.broken:
            self.oracle = self._start_oracle(against, board)
        self.observations = [self.observation]

    def _break_at_start(self, name: str, messages: list[str]) -> None:
        self.broken = True
        self.observation = {"players": {}, "objects": {}, "zones": {}, "log": []}
        self._count(name, True)
        self.initial_violations.append(Violation(name, 0, tuple(messages)))

    @property
    def output(self) -> str:
        """The tail of what the engine wrote (stdout and stderr) in the last step (its apply, then
        its observe), or at the start (``new_game``, then the first ``observe``)."""
        return self._calls.output

    def step(self, event: Event, decider) -> list[Violation]:
        """Apply ``event``; returns the violations of this step (empty if none).

        After an engine crash, hang or malformed observation the session is ``broken``:
        the game state can't be trusted, so callers stop the example. Raises
        :class:`Declined` when an engine raises ``Unsupported``.
        """
        before = self.observation
        if self.fresh or self.copies:  # no engine changes these: the views of before still hold
            views.forget_all_but(before)
        else:
            views.forget()
        monitor = supervisor.ACTIVE
        if monitor is not None:
            monitor.event(event)
        game = self.game
        assert game is not None  # only a session broken at the start has none, and it takes no step
        illegal, error, crashed = self._apply(game, event, decider)
        calls = self._calls
        output = calls.output
        after, aliased = before, False
        if error is None:
            after, aliased, error, crashed = self._observe_after(game, before)
        if output:  # else the observe's own, a tail already
            calls.output = (output + calls.output)[-OutputTail.LIMIT:]
        engine_asked = len(decider.asked)  # what the reference alone was asked comes after (differential mode)
        reference = None
        if self.oracle is not None and error is None:
            reference = self._oracle_step(self.oracle, event, decider)
        self.stats.count_step(event, before, illegal)
        transition = Transition(plain(before), plain(event), plain(after), illegal, decider.asked[:engine_asked], error,
                                reference)
        self._record(event, decider, engine_asked, illegal, monitor)
        index = len(self.steps)
        problems = observation_problems(after, before, reuse=False) if error is None else []
        if error or problems:
            return self._break_at(index, error, crashed, problems)
        self.observation = after
        self.observations.append(after)
        self.stats.count_interactions(transition.log)
        if aliased:
            return []
        return self._judge(transition, index, event, before, after)

    def _apply(self, game: Game, event: Event, decider) -> tuple[str | None, str | None, tuple[str, ...]]:
        """Apply ``event`` to the engine's game: ``(illegal, error, crashed)``, the reason it was
        refused, the crash's message and the crash finding's messages (with its site); ``(None,
        None, ())`` when it was applied. Raises :class:`Declined` when the engine raises ``Unsupported``."""
        try:
            self._call(f"apply({event.get('type')})", game.apply, _plain_copy(event), decider)
        except IllegalAction as exc:
            return exc.reason or "illegal", None, ()
        except Unsupported as exc:
            decider.asked.clear()
            raise Declined(exc.reason, exc.message, len(self.steps) + 1) from None
        except EngineFailed as exc:
            return None, str(exc), exc.messages
        return None, None, ()

    def _observe_after(self, game: Game, before: Observation) -> tuple[Observation, bool, str | None, tuple[str, ...]]:
        """The observation after an event: ``(after, aliased, error, crashed)``. ``aliased``: it
        shares parts with ``before``, found only now (``before`` may have changed since it was
        observed, so this step is not judged; every later observation is copied). The reference
        engine's game (``fresh``) is trusted: an entry of ``after`` that is ``before``'s is unchanged
        (:func:`invariants.on_change.trust_identity`). An observe that fails gives ``before`` back
        with the error and the crash finding's messages."""
        try:
            after = self._call("observe", game.observe)
            if self.fresh:
                trust_identity(after, before)
                return after, False, None, ()
            if self.copies:
                return _plain_copy(after), False, None, ()
            if shares_parts(after, before):
                self.copies = True
                return _plain_copy(after), True, None, ()
            return after, False, None, ()
        except EngineFailed as exc:
            return before, False, str(exc), exc.messages
        except (IllegalAction, Unsupported) as exc:
            error = f"observe() raised {type(exc).__name__}: {exc}"
            return before, False, error, (error, crash_site_message(_site(exc)))

    def _record(self, event: Event, decider, engine_asked: int, illegal: str | None, monitor) -> None:
        """Record the step in :attr:`steps` (and with the supervisor's ``monitor``): its event, the
        decisions asked (the first ``engine_asked`` by the engine, the others by the reference
        engine alone) and its refusal; the decider's questions are cleared."""
        asked = decider.asked
        decisions = [d.to_json() for d in asked[:engine_asked]] + [
            {**d.to_json(), "asked_by": REFERENCE_ONLY} for d in asked[engine_asked:]] if asked else []
        step = {"event": event, "decisions": decisions}
        if illegal:
            step["illegal"] = illegal
        self.steps.append(step)
        if monitor is not None:
            monitor.step(decisions, illegal)
        asked.clear()

    def _break_at(self, index: int, error: str | None, crashed: tuple[str, ...], problems: list[str]) -> list[Violation]:
        """Break the session at step ``index``: the engine crashed (``error``, its finding's
        messages ``crashed``) or its observation is malformed (``problems``)."""
        self.broken = True
        name = CRASH if error else "generic.observation_shape"
        self._count(name, True)
        return [Violation(name, index, tuple(crashed or [error]) if error else tuple(problems))]

    def _judge(self, transition: Transition, index: int, event: Event, before: Observation,
               after: Observation) -> list[Violation]:
        """Check every invariant on step ``index``'s ``transition``, counting them and the rules covered."""
        violations: list[Violation] = []
        applied: list[tuple] = []  # the (invariant, name, check) of each that applied, in their order
        stats = self.stats
        plan = schedule(self.invariants)
        stats.count_checked(plan.names)  # every invariant is checked; those that can't apply are skipped (None)
        try:
            for entry in plan.checks(event.get("type"), transition.log, before, after, transition.illegal is not None):
                result = entry[2](transition)
                if result is not None:
                    applied.append(entry)
                    if result:
                        violations.append(Violation(entry[1], index, tuple(result)))
        finally:  # counted in their order, as far as they ran
            names = list(map(_NAME, applied))
            count_each(stats.applicable, names)
        stats.coverage.record(list(map(_INVARIANT, applied)), event, before, after, names)
        return violations

    # ------------------------------------------------------------------ the oracle (differential mode)
    def _start_oracle(self, against: Engine, board: BoardSpec) -> Oracle:
        """The reference engine's game on the same board, restricted to what the engine declares.

        Compares the first observations (a board read wrongly is a finding at step 0, in
        ``initial_violations``). Raises :class:`Declined` when the reference declines the board.
        """
        try:
            with time_limit(self.step_timeout, "reference new_game"):
                oracle = Oracle(against, self.engine.info, board)
        except Unsupported as exc:
            raise Declined(exc.reason, exc.message, 0, "reference") from None
        first = Transition({}, {"type": "new_game"}, plain(self.observation), None, [], None,
                           oracle.reference(oracle.first))
        for inv in self.invariants:
            if inv.family == "differential":
                result = inv.check(first)
                self._count(inv.name, result is not None)
                if result:
                    self.initial_violations.append(Violation(inv.name, 0, tuple(result)))
        return oracle

    def _oracle_step(self, oracle: Oracle, event: Event, decider) -> dict:
        """Apply ``event`` to the reference engine with the engine's decisions (differential mode).

        Raises :class:`Declined` when the reference declines it or goes beyond the engine's declaration.
        """
        try:
            with time_limit(self.step_timeout, "reference apply"):
                return oracle.step(event, decider.asked, decider)
        except Unsupported as exc:
            decider.asked.clear()
            raise Declined(exc.reason, exc.message, len(self.steps) + 1, "reference") from None

    def _count(self, name: str, applicable: bool) -> None:
        checked = self.stats.checked
        checked[name] = checked.get(name, 0) + 1
        if applicable:
            self.stats.applicable[name] = self.stats.applicable.get(name, 0) + 1


def _fresh_reference_game(game) -> bool:
    """Whether ``game`` is the reference engine's (harness.adapters.reference.ReferenceGame, found
    without importing it: not imported, it can't be) and says its observations share nothing."""
    adapter = sys.modules.get("harness.adapters.reference")
    return adapter is not None and type(game) is adapter.ReferenceGame and game.fresh_observations is True


def scenario_run(engine, session: Session) -> ScenarioRun:
    """The :class:`ScenarioRun` of a finished ``session``, for scenario-scope invariants.

    Its ``replay`` plays the session's board, events and recorded decisions on a fresh
    game of ``engine`` (events the engine refuses with IllegalAction are skipped as they
    were). If the fresh game asks a question the recording lacks, the observation list
    ends with ``{"replay diverged": message}``; if it fails or declines, with
    ``{"replay failed": message}``.
    """

    def again(every_step: bool = True) -> list[dict]:
        call = EngineCalls(session.step_timeout).call
        observations = []
        try:
            fresh = call("new_game", engine.new_game, _plain_copy(session.board))
            if every_step:
                observations.append(call("observe", fresh.observe))
            for step in session.steps:
                try:
                    call("apply", fresh.apply, _plain_copy(step["event"]),
                         ReplayDecider(step.get("decisions", []), strict=True))
                except IllegalAction:
                    pass
                if every_step:
                    observations.append(call("observe", fresh.observe))
            return observations if every_step else [call("observe", fresh.observe)]
        except ReplayDiverged as exc:
            return observations + [{"replay diverged": str(exc)}]
        except (EngineFailed, Unsupported) as exc:  # a game that went differently the second time
            return observations + [{"replay failed": f"{type(exc).__name__}: {exc}"}]

    return ScenarioRun(plain(session.board), [s["event"] for s in session.steps], cast(list, session.observations),
                       again)  # plain dicts for invariants, as a Transition's (harness.wire.plain)
