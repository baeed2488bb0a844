"""Scenario files: the replay format, shared by ``rulesfuzz run`` and ``rulesfuzz replay``.

A scenario is JSON (schema: ``harness/schema/scenario.schema.json``)::

    {"format": "rulesfuzz-scenario/3",
     "board": BoardSpec,
     "expect_initial": {...},
     "steps": [{"event": Event, "decisions": [Decision...], "illegal": true, "expect": {...}}],
     "violation": {...}}

``expect`` is a partial observation compared after its step, so a maintainer can write a
scenario from a bug report by hand (:func:`expectation_differences`). In
``rulesfuzz-scenario/2`` players and objects are kept by id as a subset (an id not named
is not checked), ``"objects": {"ID": null}`` says that object does not exist, and every
field named is compared exactly: ``"counters": {}`` means no counters at all.
``rulesfuzz-scenario/3`` reads ``expect`` as ``/2`` does and adds: ``log`` (entries the
step's log must hold, each matched as a subset of its own observed entry, in any order;
``log_exact``: nothing else logged; ``log_ordered``: in that order; :func:`log_differences`),
``decisions`` (every question asked during the step, options as a set;
:func:`decision_differences`) and ``expect_initial`` at the top (the observation after
``new_game``, before the first event). Replaying a ``/3`` file is *strict* by default: a
question the engine asks that no recorded answer covers fails the replay
(:class:`UnrecordedDecision`) instead of getting its first option; ``/1`` and ``/2`` files
replay as before unless ``strict=True`` (``rulesfuzz replay --strict``). Recorded answers
are matched in order with their options as a list in ``/1`` and ``/2``, in any order with
options as a set in ``/3`` (:class:`ScenarioDecider`).
``rulesfuzz-scenario/1`` files are still read with their old meaning (every dict compared
by subset, so ``"counters": {}`` held whatever the counters were); :func:`format_note`
says so. A step the engine refuses (``IllegalAction``) fails the replay unless the step
says ``"illegal"`` (``true``, or the reason code ``rulesfuzz run`` recorded), or the
scenario says ``"allow_refusals": true`` (files ``rulesfuzz run`` writes: their events were
generated, so an engine may refuse any of them, as during the run).

The files ``rulesfuzz run`` writes stay ``rulesfuzz-scenario/2`` (:data:`FORMAT`): they
record every question asked (so ``--strict`` replays them too), but a finding's file is
replayed on the *fixed* engine, which may rightly ask a question the buggy one didn't;
answering it with its first option, as ``/2`` does, keeps the regression corpus about the
rules, not about the questions.
"""


from __future__ import annotations

import sys
from dataclasses import dataclass, field

from harness.running.decider import (
    REFERENCE_ONLY,
    MirrorDecider,
    ReplayDecider,
    ReplayDiverged,
    _check_options,
    same_options,
)
from harness.running.execution import BoardRejected, Session, Stats, scenario_run
from harness.protocol import Decision, Violation
from harness.wire import vocabulary
# Reading and writing scenario files, and what their expect says (re-exported: their old home).
from harness.running.scenario_files import (FORMAT, FORMAT_1, FORMAT_3, MAX_BYTES, MAX_OBJECTS,  # noqa: F401
                                            MAX_STEPS, V3_EXPECT, ScenarioError, build, load, located, save, schema,
                                            size_problem, validate, version_problem, vocabulary_problem)
from harness.running.expectations import (_field_difference, _matching, _question_fits, _short,  # noqa: F401
                                          _unmatched_entry, decision_differences, describe_question, differences,
                                          entry_matches, exact_differences, expectation_differences,
                                          log_differences, same_json)


def strict_by_default(scenario: dict) -> bool:
    """Whether ``scenario`` replays strictly unless told otherwise: ``rulesfuzz-scenario/3`` files."""
    return scenario.get("format") == FORMAT_3


def refusals_allowed(scenario: dict) -> bool:
    """Whether any step of ``scenario`` may be refused without failing its replay: its
    ``allow_refusals`` (set in files ``rulesfuzz run`` writes), by default true only for a
    ``rulesfuzz-scenario/1`` file written by ``rulesfuzz run`` (it has a ``violation``)."""
    return bool(scenario.get("allow_refusals", scenario.get("format") == FORMAT_1 and "violation" in scenario))


def format_note(scenario: dict) -> str | None:
    """One line for a replay of a ``rulesfuzz-scenario/1`` file (whose ``expect`` keeps its
    old, weaker meaning), or None."""
    if scenario.get("format") != FORMAT_1:
        return None
    return (f"{FORMAT_1} file: its expect is read with the old meaning (dicts compared by subset, so "
            f"\"counters\": {{}} holds whatever the counters are); {FORMAT} compares each field exactly and "
            f"says an object is absent with null")


class UnrecordedDecision(ReplayDiverged):
    """Strict replay: the engine asked a question no recorded answer of the step covers.

    A :class:`ReplayDiverged` (so it crosses an engine call as the harness's own, never
    blamed on the engine); :func:`replay` turns it into a failed replay at that step."""


class ScenarioDecider(ReplayDecider):
    """The recorded answers of one step of a scenario being replayed (``rulesfuzz replay``).

    A question is covered by a recorded decision of its kind, player (a record without
    ``player`` covers anyone's) and options (a record without ``options`` covers any),
    whose answer is one of the options. ``in_order`` (``/1``, ``/2``): records are taken
    in order, and those passed over to reach a match are dropped with a note, as
    :class:`~harness.running.decider.ReplayDecider` does; otherwise (``/3``) the first unused
    record that covers the question is taken, wherever it is. ``options_as_set``
    (``/3``): options are compared as a set. A question nothing covers is answered with
    its first option and a note, or with ``strict`` raises :class:`UnrecordedDecision`
    ("the engine asked KIND of PLAYER with options [...] at step N; the scenario recorded
    no answer"), kept in ``unanswered`` in case the engine swallows it.

    In differential mode the reference engine's questions the engine wasn't asked reach
    this decider through the :class:`~harness.running.decider.MirrorDecider` (the session records
    them labelled ``"asked_by": "reference"``); a record so labelled answers only the
    reference engine, and a strict failure on such a question names the reference engine.
    """

    def __init__(self, recorded, step: int, strict: bool, in_order: bool, options_as_set: bool):
        super().__init__(recorded, strict=False)
        self.step = step
        self.strict_answers = strict
        self.in_order = in_order
        self.options_as_set = options_as_set
        self.unanswered: str | None = None

    def _covers(self, rec, asker, player, kind, options) -> bool:
        if not isinstance(rec, dict) or rec.get("kind") != kind or rec.get("player") not in (None, player):
            return False
        if asker == "engine" and rec.get("asked_by") == REFERENCE_ONLY:
            return False
        if not options:
            return True
        recorded = rec.get("options") or options
        same = same_options(recorded, options) if self.options_as_set else list(recorded) == list(options)
        return same and rec.get("answer") in options

    def _ask(self, asker: str, player, kind, options):
        for i, rec in enumerate(self._recorded):
            if self._covers(rec, asker, player, kind, options):
                if self.in_order:
                    self.notes.extend(f"recorded decision {skipped} was not asked for" for skipped in self._recorded[:i])
                    del self._recorded[: i + 1]
                else:
                    del self._recorded[i]
                return self._answer(player, kind, options, rec.get("answer"))
        if self.strict_answers:
            question = (describe_question(kind, player, options) if options
                        else describe_question(kind, player, None) + " (a die roll)")
            self.unanswered = f"the {asker} asked {question} at step {self.step}; the scenario recorded no answer"
            raise UnrecordedDecision(self.unanswered)
        if not options:
            raise ReplayDiverged(f"{player!r} was asked {kind!r} [] but the scenario records no answer for it")
        self.notes.append(f"{player!r} was asked {kind!r} {list(options)} with no recorded answer: answered "
                          f"{options[0]!r}")
        return self._answer(player, kind, options, options[0])

    def _answer(self, player, kind, options, answer):
        self.asked.append(Decision(player, kind, tuple(options), answer))
        return answer

    @staticmethod
    def _asker() -> str:
        # Two frames up: whoever called choose/flip_coin/roll_die; the MirrorDecider for a
        # question of the reference engine's (differential mode).
        caller = sys._getframe(2).f_locals.get("self")
        return "reference engine" if isinstance(caller, MirrorDecider) else "engine"

    def choose(self, player, kind, options):
        asker = self._asker()
        return self._ask(asker, player, kind, _check_options(player, kind, options))

    def flip_coin(self, player):
        return self._ask(self._asker(), player, "coin_flip", ("heads", "tails"))

    def roll_die(self, player, sides):
        return self._ask(self._asker(), player, f"d{sides}", ())


@dataclass
class ReplayResult:
    """What a replay found: invariant violations and expectation mismatches, by step.

    ``notes`` say where the engine asked for decisions other than those recorded;
    ``refused`` the steps the engine refused (``IllegalAction``) that don't say
    ``"illegal"``: each fails the replay. ``mismatches`` at step 0 are those of
    ``expect_initial`` (before the first event). ``unanswered`` (strict replay): the step
    and message of a question no recorded answer covered; the replay stopped there.
    """

    violations: list[Violation] = field(default_factory=list)
    mismatches: list[tuple[int, str]] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)
    steps_run: int = 0
    notes: list[tuple[int, str]] = field(default_factory=list)
    session: Session | None = None  # the replay's session, with keep_session
    unanswered: tuple[int, str] | None = None
    strict: bool = False

    @property
    def ok(self) -> bool:
        return not self.violations and not self.mismatches and not self.refused and self.unanswered is None

    @property
    def kept_session(self) -> Session:
        """The session of a replay with ``keep_session``."""
        assert self.session is not None
        return self.session


def board_problem(board: dict) -> str | None:
    """Why ``board`` is not a legal position in the harness's vocabulary
    (:mod:`harness.wire.vocabulary`), or None.

    ``run`` and ``replay`` agree: an engine that raises on a board in the vocabulary has a
    finding (``generic.engine_does_not_raise`` at step 0); a board outside it is bad input.
    """
    return next(iter(vocabulary.scenario_problems({"board": board, "steps": []})), None)


def step_decider(scenario: dict, step: dict, index: int, strict: bool):
    """The decider of step ``index`` (from 1) of ``scenario``: the plain non-strict
    :class:`~harness.running.decider.ReplayDecider` for a ``/1`` or ``/2`` file replayed as before,
    else a :class:`ScenarioDecider` (in order for ``/1`` and ``/2``; any order, options as a
    set, for ``/3``)."""
    v3 = scenario.get("format") == FORMAT_3
    if not strict and not v3:
        return ReplayDecider(step.get("decisions", []), strict=False)
    return ScenarioDecider(step.get("decisions", []), index, strict, in_order=not v3, options_as_set=v3)


def replay(engine, scenario: dict, invariants, scenario_invariants=(), step_timeout: float | None = 10.0,
           against=None, keep_session: bool = False, strict: bool | None = None) -> ReplayResult:
    """Run ``scenario`` on ``engine`` deterministically, checking invariants and expectations.

    ``strict`` (None: :func:`strict_by_default`, true for ``rulesfuzz-scenario/3``): a
    question no recorded answer covers ends the replay as failed (``unanswered``) instead
    of getting its first option. Raises ``execution.BoardRejected`` if the engine raised on
    a board that is not a legal position (:func:`board_problem`),
    ``execution.Declined`` if the engine raises ``Unsupported``, and
    :class:`ReplayDiverged` if (not strict) it asks for a die roll the scenario lacks.
    """
    strict = strict_by_default(scenario) if strict is None else bool(strict)
    result = ReplayResult(strict=strict)
    allow_refusals = refusals_allowed(scenario)
    session = Session(engine, scenario["board"], invariants, Stats(), step_timeout, against)
    if keep_session:
        result.session = session
    if session.initial_violations:
        problem = board_problem(scenario["board"])
        if problem is not None:  # a board no engine should accept: bad input, not a finding
            raise BoardRejected(problem)
        result.violations.extend(session.initial_violations)
        return result
    if scenario.get("expect_initial") is not None:
        result.mismatches.extend((0, diff) for diff in
                                 expectation_differences(scenario, scenario["expect_initial"], session.observation))
    for index, step in enumerate(scenario["steps"], start=1):
        if not _replay_step(scenario, session, result, index, step, strict, allow_refusals):
            return result  # a question no recorded answer covered: nothing after this can be judged
        if session.broken:
            break
    if not session.broken and scenario_invariants:
        result.violations.extend(_scenario_violations(engine, session, scenario_invariants))
    return result


def _replay_step(scenario: dict, session: Session, result: ReplayResult, index: int, step: dict, strict: bool,
                 allow_refusals: bool) -> bool:
    """Replay step ``index`` (from 1) of ``scenario`` in ``session``, adding what it found to
    ``result``; False when the replay ends there (``result.unanswered``)."""
    decider = step_decider(scenario, step, index, strict)
    try:
        violations = session.step(step["event"], decider)
    except UnrecordedDecision as exc:
        result.steps_run = index
        result.unanswered = (index, str(exc))
        return False  # the game is mid-event: nothing after this can be judged
    result.steps_run = index
    if getattr(decider, "unanswered", None):  # the engine caught it and went on: the step can't be judged
        result.unanswered = (index, decider.unanswered)
        return False
    result.violations.extend(violations)
    notes = decider.notes + [f"recorded decision {d} was not asked for" for d in decider.unused]
    result.notes.extend((index, n) for n in notes)
    recorded = session.steps[-1] if len(session.steps) == index else {}
    illegal = recorded.get("illegal")
    expect = step.get("expect")
    if illegal and not allow_refusals and not step.get("illegal") and not (expect or {}).get("illegal"):
        result.refused.append((index, f"the engine refused the event (IllegalAction {illegal!r}); a step it "
                                      f"may refuse says \"illegal\": true"))
    if expect is not None:
        result.mismatches.extend((index, diff) for diff in _step_mismatches(scenario, session, index, expect, recorded))
    return True


def _step_mismatches(scenario: dict, session: Session, index: int, expect: dict, recorded: dict) -> list[str]:
    """Where step ``index`` (``recorded`` as the session recorded it) differs from its ``expect``:
    whether it was refused, then the observation, log and questions (:func:`expectation_differences`)."""
    out = []
    illegal = recorded.get("illegal")
    expected_illegal = expect.get("illegal")
    if expected_illegal is not None and bool(expected_illegal) != bool(illegal) or (
        isinstance(expected_illegal, str) and expected_illegal != illegal
    ):
        out.append(f"illegal: expected {expected_illegal!r}, got {illegal!r}")
    # The engine's questions: not those only the reference engine asked (differential mode).
    asked = [d for d in recorded.get("decisions", []) if d.get("asked_by") != REFERENCE_ONLY]
    # The log of this step: none for a refused event (the game is unchanged) or one
    # whose observation never came (a crash, a malformed observation).
    observed = len(session.observations) == index + 1
    log = session.observation.get("log", []) if observed and not illegal else []
    out.extend(expectation_differences(scenario, expect, session.observation, asked, log))
    return out


def _scenario_violations(engine, session: Session, scenario_invariants) -> list[Violation]:
    """The violations of the scenario-scope invariants on the finished ``session``."""
    run = scenario_run(engine, session)
    out = []
    for inv in scenario_invariants:
        messages = inv.check(run)
        if messages:
            out.append(Violation(inv.name, len(session.steps), tuple(messages)))
    return out


__all__ = ["FORMAT", "FORMAT_1", "FORMAT_3", "ReplayDiverged", "ReplayResult", "ScenarioDecider", "ScenarioError",
           "UnrecordedDecision", "build", "decision_differences", "differences", "entry_matches", "exact_differences",
           "expectation_differences", "format_note", "load", "log_differences", "refusals_allowed", "replay",
           "same_json", "save", "schema", "strict_by_default", "validate"]
