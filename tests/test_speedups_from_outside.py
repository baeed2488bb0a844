"""Issue 25's speed-ups attacked from outside, as an engine team would meet them.

An engine written from scratch (``tests/outside_engines.py``: Grizzly Bears and P/T counters) that
hands out its own counters dict once a permanent has counters, a caller changing an observation
the reference engine gave out, and a list of invariants changed in place. Expected verdicts come
from the rules: CR 122.1a (counters), 704.5q (+1/+1 and -1/-1 counters annihilate), 704.3 (state-
based actions performed), 110.1 and 302.6 (a card put onto the battlefield). Three defects found
here are mended (a nested dict shared from mid-game on, an entry given out again after a caller
changed a field's type, a schedule kept after its list was changed in place); the tests guard them.
"""

from __future__ import annotations

import pytest

from harness.running.execution import Session
from harness.running.runner import run
from invariants import select
from invariants.base import Invariant
from invariants.generic import observation_problems
from reference_engine import ReferenceEngine
from reference_engine.game import Game

from .outside_engines import CounterEngine, CounterGame, HonestCounterGame
from .scenario_helpers import Decider, board, obj

ENTER = {"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears", "controller": "P1", "attach_to": None}


def _counters(kind: str, amount: int = 1, oid: str = "n1") -> dict:
    return {"type": "add_counters", "object": oid, "kind": kind, "amount": amount}


#: Bears put onto the battlefield of an empty board (no counters at the start), then +1/+1, +1/+1,
#: -1/-1: a correct engine ends with one +1/+1 counter (704.5q removes one pair) and a 3/3.
EVENTS = [ENTER, _counters("+1/+1"), _counters("+1/+1"), _counters("-1/-1")]
#: The counters on n1 a correct engine has after each event.
RIGHT = [{}, {"+1/+1": 1}, {"+1/+1": 2}, {"+1/+1": 1}]

#: What the tests of the sharing engine (CounterGame) guard: the session finds an engine sharing its
#: own state by a deep walk of its two first observations and, at each step, by identity of its
#: top-level parts, object entries and the dicts and lists directly inside them
#: (``observation_copies.shares_parts``). Before, a dict inside an entry that first appeared after
#: the start (counters made with the first counter) was shared undetected, so the engine's next
#: add_counters rewrote the observation kept as 'before' and a correct engine was reported.


def _played(engine, events=EVENTS) -> tuple[Session, list[list[str]]]:
    session = Session(engine, board(), select(engine.info.capabilities))
    assert session.initial_violations == []
    found = [sorted(v.invariant for v in session.step(event, Decider())) for event in events]
    return session, found


def test_the_honest_engine_is_correct_and_its_annihilation_bug_is_704_5q():
    """The same engine handing out copies: no finding when it performs 704.5q, and exactly 704.5q's
    finding (at the -1/-1 step) when it doesn't."""
    session, found = _played(CounterEngine(game=HonestCounterGame))
    assert found == [[], [], [], []]
    assert [o["objects"]["n1"]["counters"] for o in session.observations[1:]] == RIGHT
    _, found = _played(CounterEngine(bugs={"no_annihilation"}, game=HonestCounterGame))
    assert found == [[], [], [], ["sba.counter_annihilation"]]


def test_a_correct_engine_sharing_counters_made_late_has_no_finding():
    session, found = _played(CounterEngine())
    assert found == [[], [], [], []]


def test_the_session_keeps_each_observation_as_the_engine_made_it():
    """The session's record of the game (``observations``, what a replay file and every check read)
    has the counters of each step, whatever the engine changed in place afterwards."""
    session, _ = _played(CounterEngine())
    assert [o["objects"]["n1"]["counters"] for o in session.observations[1:]] == RIGHT


def test_a_sharing_engine_with_the_annihilation_bug_is_reported_for_704_5q_alone():
    """No annihilation (CR 704.5q not performed) is the one bug: its counters change only as the log says."""
    _, found = _played(CounterEngine(bugs={"no_annihilation"}))
    assert found == [[], [], [], ["sba.counter_annihilation"]]


#: A Forest put onto the battlefield, then a +1/+1 and a -1/-1 counter on it: a permanent, so 704.5q
#: removes the pair (counters on a land change no power or toughness: it has none, CR 208.3); then
#: Grizzly Bears enter (110.1), the Forest as it was.
FOREST = [{**ENTER, "card": "Forest"}, _counters("+1/+1"), _counters("-1/-1"), {**ENTER, "id": "n2"}]


@pytest.mark.parametrize("game", [HonestCounterGame, CounterGame], ids=["copies", "shares"])
def test_both_kinds_of_counters_left_on_a_land_are_found(game):
    """CR 704.5q applies to any permanent. The sharing engine's -1/-1 step changes nothing of the
    Forest's entry but the counters dict it handed out at the +1/+1 step: a check reading only the
    objects changed since the step before must still see the counters as they are now, at that step
    or (a session that finds the sharing only then doesn't judge it) at the next."""
    _, found = _played(CounterEngine(bugs={"no_annihilation"}, game=game), FOREST)
    assert found[:2] == [[], []] and "sba.counter_annihilation" in found[2] + found[3]


@pytest.mark.parametrize("explore", [True, False], ids=["explore", "hypothesis"])
def test_differential_mode_finds_nothing_on_the_honest_engine_and_its_704_5f_bug(explore, tmp_path):
    """Against the reference engine: no finding for the correct engine; a creature left on the
    battlefield with toughness 0 (CR 704.5f not performed) is found as 704.5f's invariant."""
    from harness.adapters.reference import ReferenceAdapter

    settings = {"max_examples": 40, "seed": 1, "database": None, "explore": explore, "replay_dir": str(tmp_path),
                "against": ReferenceAdapter()}
    assert run(CounterEngine(game=HonestCounterGame), **settings).findings == []
    found = run(CounterEngine(bugs={"no_zero_toughness"}, game=HonestCounterGame), **settings)
    assert [f.violation.invariant for f in found.findings] == ["sba.zero_toughness"]


@pytest.mark.parametrize("explore", [True, False], ids=["explore", "hypothesis"])
def test_fuzzing_the_honest_engine_finds_nothing_and_its_bug_as_704_5q(explore, tmp_path):
    """Both drivers, 100 examples: the correct engine has no finding; the buggy one's finding is
    704.5q's, shrunk or not, after examples and shrink replays that judged other games first."""
    settings = {"max_examples": 100, "seed": 0, "database": None, "explore": explore, "replay_dir": str(tmp_path)}
    assert run(CounterEngine(game=HonestCounterGame), **settings).findings == []
    found = run(CounterEngine(bugs={"no_annihilation"}, game=HonestCounterGame), **settings)
    assert [f.violation.invariant for f in found.findings] == ["sba.counter_annihilation"]


def test_fuzzing_a_correct_engine_sharing_counters_made_late_finds_nothing(tmp_path):
    result = run(CounterEngine(), max_examples=100, seed=0, database=None, explore=True, replay_dir=str(tmp_path))
    assert result.findings == []


def test_a_caller_changing_an_observation_of_the_reference_engine_changes_no_later_one():
    """Grizzly Bears (2/2, no counters, untapped) and Typhoid Rats observed twice: the first
    observation changed by its caller, in every field kind, leaves the second as the game is."""
    game = ReferenceEngine().new_game(board(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats", owner="P2")))
    first = game.observe()
    bears = first["objects"]["b"]
    bears.update(tapped=0, power=2.0, damage=False)
    bears["counters"]["+1/+1"] = 5
    bears["types"].append("Artifact")
    bears["copiable"]["keywords"].append("flying")
    first["zones"]["battlefield"].reverse()
    again = game.observe()["objects"]["b"]
    assert (again["tapped"], again["damage"], again["power"], again["toughness"]) == (False, 0, 2, 2)
    assert type(again["tapped"]) is bool and type(again["damage"]) is int and type(again["power"]) is int
    assert again["counters"] == {} and again["types"] == ["Creature"] and again["copiable"]["keywords"] == []


class _SharingGame(Game):
    """The reference engine's game giving out an unchanged object's entry again (its opt-in)."""

    shares_unchanged_entries = True


def test_a_sharing_reference_game_never_gives_out_a_callers_change_of_type():
    """Grizzly Bears are untapped (False), undamaged (0), 2/2 (integers): the protocol's types."""
    game = _SharingGame(board(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats")))
    first = game.observe()
    game.observe()
    first["objects"]["b"].update(tapped=0, damage=False, power=2.0)
    again = game.observe()
    assert observation_problems(again, reuse=False) == []


def test_an_invariant_put_in_place_of_another_in_the_same_list_is_checked():
    """A session's invariants are the list it is given, as it is when the session runs."""
    engine = CounterEngine(game=HonestCounterGame)
    invariants = select(engine.info.capabilities)
    Session(engine, board(), invariants).step(ENTER, Decider())  # a schedule made for the list
    invariants[0] = Invariant("outside.always", "generic", (), (), frozenset(), lambda t: ["found"], "always")
    found = Session(engine, board(), invariants).step(ENTER, Decider())
    assert "outside.always" in [v.invariant for v in found]


@pytest.mark.parametrize("given, private, same", [
    ({"counters": {"+1/+1": 1}}, {"counters": {"+1/+1": 1}}, True),
    ({"counters": {"+1/+1": 1.0}}, {"counters": {"+1/+1": 1}}, False),
    ({"types": ["Creature"]}, {"types": ("Creature",)}, False),
    ({"tapped": 1}, {"tapped": True}, False),
    ({"a": 1, "b": 2}, {"a": 1}, False),
    ([0, [False]], [0, [0]], False),
])
def test_an_entry_is_given_out_again_only_if_equal_in_every_type(given, private, same):
    """The protocol's fields have one JSON type each (an integer count, a boolean status)."""
    from reference_engine.kept import same_json

    assert same_json(given, private) is same


class _OwnObserveGame(Game):
    """A fork observing with its own method: the same observation as the reference engine's, but
    the adapter can't know it shares nothing."""

    def observe(self):
        return super().observe()


def test_only_a_game_observing_with_the_reference_engines_methods_is_taken_as_handing_out_fresh_observations():
    """A session looks for shared parts in every observation of an engine, except one whose game
    declares them fresh: the reference engine's, which copies every kept entry (and a fork of it
    only while it observes with the package's methods and doesn't share entries)."""
    from harness.adapters.reference import ReferenceAdapter, ReferenceGame

    engine = ReferenceAdapter()
    assert Session(engine, board(obj("b", "Grizzly Bears")), []).fresh is True
    assert ReferenceGame(_OwnObserveGame(board(obj("b", "Grizzly Bears")))).fresh_observations is False
    assert ReferenceGame(_SharingGame(board(obj("b", "Grizzly Bears")))).fresh_observations is False
    assert Session(CounterEngine(), board(), []).fresh is False


class _SaysFreshGame(CounterGame):
    """The sharing engine's game, saying its observations are fresh."""

    fresh_observations = True


def test_an_engine_not_ours_saying_its_observations_are_fresh_is_looked_at_all_the_same():
    """Only the reference engine's word is taken: this game shares its counters dict from the
    first counter on (CR 122.1a), so the session copies its observations from then on."""
    session, found = _played(CounterEngine(game=_SaysFreshGame))
    assert session.fresh is False and session.copies is True
    assert found == [[], [], [], []]
