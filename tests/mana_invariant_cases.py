"""Passing and failing transitions for the mana and cost invariants (``invariants/mana.py``).

``tests/test_invariants.py`` merges :data:`CASES` into its table. Every "holds"
transition is a real step of the reference engine; every "broken" one is such a step with
its observation altered as a buggy engine would (or a refused event accepted), each
saying which rule it breaks. The mutants of ``tests/mutants`` break them for real.
"""

from __future__ import annotations

import copy
import importlib
from typing import NamedTuple
from collections.abc import Callable

from invariants import Decision, Transition
from reference_engine import IllegalAction, ReferenceEngine

from .scenario_helpers import board, obj


class Case(NamedTuple):
    holds: Callable[[], Transition]
    broken: Callable[[], Transition]
    says: str


class Recording:
    """A decider answering from a script (the first option when the script is empty) and
    recording each question as a :class:`Decision`."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.decisions: list[Decision] = []

    def choose(self, player, kind, options):
        answer = self.answers.pop(0) if self.answers else options[0]
        self.decisions.append(Decision(player, kind, tuple(options), answer))
        return answer

    def flip_coin(self, player):  # pragma: no cover - no mana card flips coins
        raise AssertionError("no coin flip expected")

    def roll_die(self, player, sides):  # pragma: no cover
        raise AssertionError("no die roll expected")


def run(objects, events, *answers, mutant: str | None = None) -> Transition:
    """The last of ``events`` on a board of ``objects``, as a :class:`Transition`, played by the
    reference engine or by the mutant ``tests/mutants/<mutant>.py``."""
    if mutant is None:
        game = ReferenceEngine().new_game(board(*objects))
    else:
        game = importlib.import_module(f"tests.mutants.{mutant}").MutantEngine().new_game(board(*objects))
    for event in events[:-1]:
        game.apply(event, Recording())
    before = copy.deepcopy(game.observe())
    decider = Recording(*answers)
    illegal = None
    try:
        game.apply(events[-1], decider)
    except IllegalAction as exc:
        illegal = exc.reason
    return Transition(before, events[-1], copy.deepcopy(game.observe()), illegal, decider.decisions)


def tap(oid, n=0):
    return {"type": "activate", "object": oid, "ability": n}


def without_decisions(t: Transition) -> Transition:
    """``t`` as if the engine had asked nothing."""
    return Transition(t.before, t.event, t.after, t.illegal, [])


def altered(t: Transition, change) -> Transition:
    after = copy.deepcopy(t.after)
    change(after)
    return Transition(t.before, t.event, after, t.illegal, t.decisions)


FOREST_REFLECTED = [obj("f", "Forest"), obj("r1", "Mana Reflection"), obj("r2", "Mana Reflection")]
HEARTBEATS = [obj("f", "Forest"), obj("e", "Llanowar Elves"), obj("h1", "Heartbeat of Spring"),
              obj("h2", "Mana Flare", "P2")]
PILI = [obj("f1", "Forest"), obj("f2", "Forest"), obj("p", "Pili-Pala", tapped=True), obj("r", "Mana Reflection")]
CONTAMINATED = [obj("s", "Fellwar Stone"), obj("f", "Forest", "P2"), obj("c", "Contamination", "P2")]
LONELY_POOLS = [obj("p1", "Reflecting Pool"), obj("p2", "Reflecting Pool"), obj("h", "Heartbeat of Spring")]
ORDERED = [obj("f", "Forest"), obj("r", "Mana Reflection"), obj("c", "Contamination", "P2")]
SICK_PILI = PILI[:2] + [obj("p", "Pili-Pala", tapped=True, summoning_sick=True)]
BAIRN = [obj("b", "Gilder Bairn", tapped=True), obj("f1", "Forest"), obj("f2", "Forest"), obj("f3", "Forest")]


def _set_pool(player, **amounts):
    def change(after):
        after["players"][player]["mana_pool"].update(amounts)
    return change


def accepted(t: Transition) -> Transition:
    """``t`` (a refused event) as if the engine had performed it and changed nothing."""
    return Transition(t.before, t.event, copy.deepcopy(t.before), None, t.decisions)


def _log(entry):
    def change(after):
        after["log"].append(entry)
    return change


def _object(oid, **fields):
    def change(after):
        after["objects"][oid].update(fields)
    return change


CASES: dict[str, Case] = {
    # CR 106.12b, 614.5: two Mana Reflections make {G} into {G}{G}{G}{G}; one applied: {G}{G}.
    "mana.amount": Case(lambda: run(FOREST_REFLECTED, [tap("f")]),
                        lambda: altered(run(FOREST_REFLECTED, [tap("f")]), _set_pool("P1", G=2)), "expected 4"),
    # CR 106.7: under Contamination the opponent's Forest could produce only {B}, not {G}.
    "mana.types": Case(lambda: run(CONTAMINATED, [tap("s")]),
                       lambda: altered(run(CONTAMINATED, [tap("s")]), _set_pool("P1", B=0, G=1)), "can't produce"),
    # CR 106.5: two Reflecting Pools alone add nothing, not {C}.
    "mana.undefined_type_produces_nothing": Case(
        lambda: run(LONELY_POOLS, [tap("p1")]),
        lambda: altered(run(LONELY_POOLS, [tap("p1")]), _set_pool("P1", C=1)), "no type"),
    # CR 106.12a: a land triggers Heartbeat of Spring and Mana Flare once each; Llanowar Elves is no land.
    "mana.tapped_for_mana_triggers": Case(
        lambda: run(HEARTBEATS, [tap("f")]),
        lambda: altered(run(HEARTBEATS, [tap("e")]), _log({"kind": "trigger", "source": "h1",
                                                           "ability": "tapped for mana", "controller": "P1"})),
        "expected 0"),
    # CR 616.1: Contamination and Mana Reflection give {B}{B} or {B}: the player who tapped chooses.
    "mana.replacement_order_chosen": Case(
        lambda: run(ORDERED, [tap("f")], "Contamination:c"),
        lambda: without_decisions(run(ORDERED, [tap("f")], "Contamination:c")), "nobody chose"),
    # CR 106.4: pass_step empties every pool.
    "mana.pool_empties": Case(lambda: run([obj("f", "Forest")], [tap("f"), {"type": "pass_step"}]),
                              lambda: altered(run([obj("f", "Forest")], [tap("f"), {"type": "pass_step"}]),
                                              _set_pool("P1", G=1)), "mana pool"),
    "mana.pool_shape": Case(lambda: run([obj("f", "Forest")], [tap("f")]),
                            lambda: altered(run([obj("f", "Forest")], [tap("f")]), _set_pool("P1", G=-1)),
                            "mana_pool"),
    # CR 502.3, 302.6: P1's permanents untap and lose summoning sickness.
    "turn.untap_step": Case(
        lambda: run([obj("e", "Llanowar Elves", summoning_sick=True, tapped=True)],
                    [{"type": "begin_turn", "player": "P1"}]),
        lambda: altered(run([obj("e", "Llanowar Elves", summoning_sick=True, tapped=True)],
                            [{"type": "begin_turn", "player": "P1"}]), _object("e", summoning_sick=True)),
        "summoning_sick=True"),
    # CR 107.5: a tapped Forest can't pay {T}.
    "costs.tap_symbol": Case(lambda: run([obj("f", "Forest", tapped=True)], [tap("f")]),
                             lambda: accepted(run([obj("f", "Forest", tapped=True)], [tap("f")])), "107.5"),
    # CR 107.6: an untapped Pili-Pala can't pay {Q}; once paid, it is untapped.
    "costs.untap_symbol": Case(lambda: run(PILI, [tap("f1"), tap("f2"), tap("p")]),
                               lambda: altered(run(PILI, [tap("f1"), tap("f2"), tap("p")]), _object("p", tapped=True)),
                               "paid {Q}"),
    # CR 302.6: a summoning-sick Pili-Pala can't pay {Q}.
    "costs.summoning_sickness": Case(
        lambda: run(SICK_PILI, [tap("f1"), tap("f2"), tap("p")]),
        lambda: accepted(run(SICK_PILI, [tap("f1"), tap("f2"), tap("p")])), "summoning-sick"),
    # CR 601.2h: Gilder Bairn's {2}{G/U} comes out of the pool, all three mana of it.
    "costs.mana_from_pool": Case(
        lambda: run(BAIRN, [tap("f1"), tap("f2"), tap("f3"), tap("b")]),
        lambda: altered(run(BAIRN, [tap("f1"), tap("f2"), tap("f3"), tap("b")]), _set_pool("P1", G=1)),
        "its cost is 3"),
}

#: More ways to break them: (invariant, broken transition, a word of the message).
MORE_BROKEN = [
    # CR 106.12b: Mana Reflection doesn't apply to Pili-Pala's {Q} ability: {G}{G}{G}{G} - {2} + 1 = 3, not 4.
    ("mana.amount", lambda: altered(run(PILI, [tap("f1"), tap("f2"), tap("p")], "R"), _set_pool("P1", R=2)),
     "expected -1"),
    # CR 106.12a: each of two trigger sources triggers.
    ("mana.tapped_for_mana_triggers",
     lambda: altered(run(HEARTBEATS, [tap("f")]), lambda after: after.update(
         log=[e for e in after["log"] if e.get("source") != "h2"])), "expected 1"),
    # CR 601.2h: a pool that can't pay the {2}.
    ("costs.mana_from_pool", lambda: accepted(run([obj("p", "Pili-Pala", tapped=True)], [tap("p")])), "can't pay"),
]
