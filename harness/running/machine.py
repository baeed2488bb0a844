"""The Hypothesis state machine that drives an engine through the protocol.

``@initialize`` draws a board and fills the ``objects`` Bundle with its object ids; each
``@rule`` builds one event whose objects come from that Bundle (so events also hit
objects that have left the battlefield, which must be refused without change) or from
the live permanents (``harness.generation.targeting``); after every step the session checks every
selected invariant. Rules whose capabilities the engine doesn't claim are switched off.

:func:`make_machine` binds a machine class to an engine, its invariants and a
:class:`~harness.running.recording.Recorder` that keeps the smallest failing scenario on disk as
soon as it is found, so an interrupted run loses nothing.

Adding a rules area
-------------------
The rules live in ``harness/rules/``, one mixin class per rules area
(``destruction.py``: :class:`DestructionActions`, ``umbra.py``, ``permanents.py``,
``layers.py``). To add an area (say mana abilities):

1. Write ``harness/rules/mana.py`` with ``class ManaActions(RulesArea)`` whose methods are
   ordinary Hypothesis rules::

       from hypothesis import strategies as st
       from hypothesis.stateful import rule
       from .base import RulesArea, needs, objects

       class ManaActions(RulesArea):
           @needs("mana_abilities")          # a capability row of harness/protocol.py
           @rule(obj=objects, data=st.data())
           def activate(self, obj, data):
               self._apply({"type": "activate", "object": obj}, data)

   ``self._apply(event, data)`` performs and checks the event, ``self._new_id()`` names
   a new object (return it from a rule with ``target=objects``), ``self._live()`` and
   the other :class:`~harness.generation.targeting.Targeting` helpers pick live permanents.
   Put ``@needs(...)`` above ``@rule``: every capability the rule's events need.
2. Add the class to ``AREAS`` in ``harness/rules/__init__.py`` and to the bases of
   :class:`EngineMachine` below.
3. Add the capability (its board features and events) to ``CAPABILITIES`` in
   ``harness/protocol.py``.

Hypothesis collects ``@rule`` and ``@precondition`` methods over the class's MRO, so a
mixin's rules are the machine's rules (``tests/test_state_machine.py`` checks it). Rule
names must be unique across areas.
"""

from __future__ import annotations

from typing import NoReturn

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, multiple

from harness.generation import hypothesis_shim
from harness.running import interrupts
from harness.generation import strategies as S
from harness.running.decider import DrawingDecider
from harness.running.execution import Declined, Session, Stats
from harness.running.explore import ExampleDeclined
from harness.reporting.findings import primary_first, step_key, violation_keys
from harness.generation.guidance import GuidedPlan
from harness.protocol import Engine, Event, Violation
from harness.generation.hypothesis_shim import is_rule
from harness.generation.plan import FULL, Plan
from harness.running.recording import InvariantViolation, Recorder, scenario_run
from harness.rules.mana import board_extras
from harness.rules.playtest import with_playtest_corner
from harness.rules.search import with_search_corner
from harness.rules.combat import CombatActions, with_combat_corner
from harness.rules.stack import StackActions
from harness.rules import (
    CARD_LISTS,
    DECLARED_ONLY,
    REQUIRES,
    ChanceActions,
    ControlActions,
    DestructionActions,
    LayersActions,
    ManaActions,
    ModelledActions,
    PermanentActions,
    PlaytestActions,
    SearchActions,
    StepsActions,
    UmbraActions,
    ZoneActions,
    objects,
)

__all__ = ["EngineMachine", "InvariantViolation", "Recorder", "make_machine", "rule_gates", "scenario_run"]


class EngineMachine(StackActions, DestructionActions, UmbraActions, PermanentActions, LayersActions, ControlActions, ManaActions, ChanceActions,
                    SearchActions, PlaytestActions, ModelledActions, ZoneActions, StepsActions, CombatActions,
                    RuleBasedStateMachine):
    """The rules of every area (``harness.rules``) over one engine. Use :func:`make_machine` to bind an engine."""

    # Set by make_machine: the engine, the run's counts, its recorder, the keys of the findings
    # reported, a key -> the key of the finding it joined, and a key -> its group (see _found).
    engine: Engine
    run_stats: Stats
    recorder: Recorder
    found_keys: set[str]
    finding_of: dict[str, str]
    groups: dict[str, str]
    step_invariants: list = []
    scenario_invariants: list = []
    coverage_guided: bool = False
    #: Set on an instance run by :mod:`harness.running.explore` (no Hypothesis test around it).
    outside_hypothesis: bool = False
    #: Whether teardown runs the scenario-scope invariants (harness.running.explore samples them).
    scenario_checks: bool = True
    capabilities: frozenset = frozenset()
    step_timeout: float | None = None
    against = None
    max_creatures = 4
    max_auras = 3
    plan: Plan = FULL
    board_strategy = with_search_corner(S.boards(FULL, max_creatures, max_auras), FULL)

    def __init__(self):
        super().__init__()
        self._begin()

    @classmethod
    def outside_hypothesis_run(cls) -> EngineMachine:
        """A machine for :mod:`harness.running.explore`, which runs the rules itself: without
        Hypothesis's own state of a run (its rule strategy, which holds the machine in a reference
        cycle, the names and printer of its report), which exploration never reads; about 1% of
        a step. (Not an argument of ``__init__``: Hypothesis reads its signature.)"""
        machine = cls.__new__(cls)
        machine.outside_hypothesis = True
        machine._begin()
        return machine

    def _begin(self) -> None:
        """This example's own state: no session yet, no new object named, nothing found."""
        self.session: Session | None = None
        self.new_ids = 0
        self.copies: list[str] = []  # ids the log shows entering as copies (CR 707)
        # Rare objects whose copies show a copy rule: Penumbra Umbra's black tokens (a copy
        # with an exception, CR 707.9b) and creatures cast with X >= 1 (CR 107.3m).
        self.special: list[str] = []
        self._live_cache: tuple | None = None
        self.stopped = False
        if self.coverage_guided and not self.outside_hypothesis:  # exploration draws its rules itself
            self._guide_rule_choices()

    def _guide_rule_choices(self) -> None:
        """Have Hypothesis draw this example's rules weighted by the run's rule coverage
        (:mod:`harness.generation.guidance`), and note each rule drawn as the source of its step."""
        plan = self.plan
        assert isinstance(plan, GuidedPlan) and plan.guidance is not None  # make_machine's, when coverage-guided
        guidance, coverage = plan.guidance, self.run_stats.coverage
        names = tuple(hypothesis_shim.machine_rule_names(self))
        hypothesis_shim.weight_rules(self, lambda: guidance.rule_weights(names),
                                     lambda name: setattr(coverage, "source", name))

    @initialize(target=objects, data=st.data(), extras=st.deferred(lambda: board_extras()))
    def setup(self, data, extras):
        interrupts.check()
        board = self.extend_board(data.draw(self.board_strategy, label="board"), extras)
        self.run_stats.examples += 1
        try:
            self.session = Session(self.engine, board, self.step_invariants, self.run_stats, self.step_timeout,
                                   self.against)
        except Declined as exc:
            self._decline(exc)
        if self.session.initial_violations:  # the engine raised or hung on the board, or observed it malformed
            self._found(self.session.initial_violations)
        return multiple(*(o["id"] for o in board["objects"]))

    def _found(self, violations: list[Violation]) -> None:
        """Fail the example: its violations are one finding, keyed by :func:`harness.reporting.findings.step_key`
        (its scenario is kept on disk), raised as the failure of their keys' group.

        When one of its keys belongs to a finding already reported (``--keep-going``), the
        failure is a repeat of that finding, counted, and its other keys join it; the example
        stops without failing, so Hypothesis looks for other bugs.
        """
        session = self.session
        assert session is not None  # violations are found by the session's steps and checks
        keys = violation_keys(violations)  # a difference another invariant caught has that one's key
        known = next((k for k in keys if k in self.found_keys), None)
        if known is not None:  # one of a reported finding's keys: that finding again (harness.reporting.findings)
            finding = self.finding_of.get(known, known)
            self.recorder.repeat(finding)
            self.found_keys.update(keys)
            for k in keys:
                self.finding_of.setdefault(k, finding)
            self.stopped = True
            return
        key = step_key(violations, keys)
        # Keys that failed together on a step are one failure for the whole run: the exception
        # class is their group's (the first key seen of them), so Hypothesis shrinks them once.
        group = next((self.groups[k] for k in keys if k in self.groups), key)
        for k in keys:
            self.groups.setdefault(k, group)
        ordered = primary_first(violations, key, keys)
        raise self.recorder.violation(session, ordered, self.engine, self.run_stats.examples, group)

    def _decline(self, exc: Declined) -> NoReturn:
        """End the example without blame: the engine doesn't model what it needs (counted by reason).

        Hypothesis counts the example as rejected, so shrinking never turns a finding into
        a declined example.
        """
        self.run_stats.declined(exc)
        if self.outside_hypothesis:
            raise ExampleDeclined(exc.reason)
        reject()

    def _apply(self, event: Event, data) -> None:
        interrupts.check()
        if self.stopped:  # a finding already reported: the rest of the example does nothing
            return
        event = self.stack_event(event)
        session = self.session
        assert session is not None  # rules run after setup made it
        try:
            violations = session.step(event, DrawingDecider(data))
        except Declined as exc:
            self._decline(exc)
        objects = session.observation.get("objects", {})
        for entry in session.observation.get("log", ()):
            if entry.get("kind") != "zone_change":
                continue
            cause = entry.get("cause")
            if isinstance(cause, dict) and cause.get("copy_of"):
                self.copies.append(entry["object"])
                by = cause.get("by")  # the copy effect's source: a string (harness.wire.log_kinds)
                if isinstance(by, str) and by in objects and objects[by].get("name") == "Penumbra Umbra":
                    self.special.append(entry["object"])
        if event.get("type") == "put_onto_battlefield" and event.get("x") and (oid := event.get("id")) is not None:
            self.special.append(oid)
        if violations:
            self._found(violations)
        self.after_event(event, data)

    def _new_id(self) -> str:
        self.new_ids += 1
        return f"n{self.new_ids}"

    def teardown(self):
        try:
            self._scenario_checks()
        finally:
            self.release()

    def release(self) -> None:
        """Drop this example's session (its game and every observation). Hypothesis's machine
        is in a reference cycle (it holds a ``RuleStrategy`` of itself), so whatever it still
        holds waits for the cyclic garbage collector: a full collection walking every example's
        observations cost about a quarter of an exploration's time."""
        self.session = None

    def _scenario_checks(self):
        session = self.session
        if session is not None:
            self.recorder.ran(session.board, session.steps)
        if session is None or session.broken or self.stopped or not self.scenario_invariants or not session.steps \
                or not self.scenario_checks:
            return
        run = scenario_run(self.engine, session)
        self.run_stats.coverage.record(self.scenario_invariants, {}, {}, {})
        for inv in self.scenario_invariants:
            messages = inv.check(run)
            self.run_stats.checked[inv.name] = self.run_stats.checked.get(inv.name, 0) + 1
            self.run_stats.applicable[inv.name] = self.run_stats.applicable.get(inv.name, 0) + 1
            if messages:
                self._found([Violation(inv.name, len(session.steps), tuple(messages))])


def rule_gates(machine: type = EngineMachine, plan: Plan = FULL) -> dict[str, str | None]:
    """Every rule of ``machine`` -> None if ``plan`` runs it, else why not (one line).

    A rule runs when the plan has every capability its ``needs`` names (claimed, or implied
    by the engine's cards: ``Plan.capabilities``), the plan's card lists it draws from
    are not empty and, for a rule marked ``needs(declared=True)``, each of those lists has a declared
    card of the card database (one the plan reads from its model, ``Plan.models``).
    """
    gates = {}
    for name in sorted(dir(machine)):
        method = getattr(machine, name, None)
        if method is None or not is_rule(method):
            continue
        missing = sorted(getattr(method, REQUIRES, frozenset()) - plan.capabilities)
        empty = [lst for lst in getattr(method, CARD_LISTS, ()) if not plan.lists.get(lst)]
        why = []
        if missing:
            why.append(f"needs capability {', '.join(missing)}")
        if empty:
            why.append(f"no card of list {', '.join(empty)} is playable")
        if getattr(method, DECLARED_ONLY, False) and not all(
                any(c in plan.models for c in plan.lists.get(lst, ())) for lst in getattr(method, CARD_LISTS, ())):
            why.append("only for declared cards of the card database (EngineInfo.cards beyond the curated pool)")
        gates[name] = "; ".join(why) or None
    return gates


def make_machine(engine, invariants, scenario_invariants=(), stats: Stats | None = None,
                 recorder: Recorder | None = None, step_timeout: float | None = None, against=None,
                 coverage_guided: bool = False):
    """A subclass of :class:`EngineMachine` bound to ``engine`` and its invariants.

    ``against`` is the reference engine for differential mode, or None. The run's
    :class:`~harness.generation.plan.Plan` is made here, once: boards use only its cards and board
    features, and rules it leaves out (:func:`rule_gates`) are not in the class at all.
    With ``coverage_guided`` the plan is a :class:`harness.generation.guidance.GuidedPlan` and each
    example draws its rules weighted too (:mod:`harness.generation.guidance`; the runner refreshes the
    weights between chunks).
    """
    plan = Plan.for_info(engine.info)
    if coverage_guided:
        plan = GuidedPlan.of_plan(plan)
    off = {name: None for name, why in rule_gates(EngineMachine, plan).items() if why}
    return type(
        "EngineMachineFor_" + "".join(c if c.isalnum() else "_" for c in engine.info.name),
        (EngineMachine,),
        {
            **off,
            "plan": plan,
            "board_strategy": with_combat_corner(with_playtest_corner(with_search_corner(
                S.boards(plan, EngineMachine.max_creatures, EngineMachine.max_auras), plan), plan), plan),
            "engine": engine,
            "step_invariants": list(invariants),
            "scenario_invariants": list(scenario_invariants),
            "run_stats": stats if stats is not None else Stats(),
            "recorder": recorder if recorder is not None else Recorder(),
            "capabilities": plan.capabilities,  # claimed and implied by its cards (harness.generation.plan)
            "step_timeout": step_timeout,
            "against": against,
            "found_keys": set(),
            "finding_of": {},  # a key of a reported finding (or one that joined it) -> the finding's key
            "groups": {},  # a key -> the group (first key seen) of the keys it failed together with
            "coverage_guided": coverage_guided,
        },
    )
