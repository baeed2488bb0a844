"""Issue 25's speed-ups attacked from outside, as an engine team would meet them.

An engine written from scratch (``tests/outside_engines.py``: Grizzly Bears and P/T counters) that
hands out its own counters dict once a permanent has counters, engines handing out the same entry
dicts from one observation to the next (unchanged, or changed in place, some saying they are the
reference engine's kind), and a list of invariants changed in place. Expected verdicts come
from the rules: CR 122.1a (counters), 704.5q (+1/+1 and -1/-1 counters annihilate), 704.3 (state-
based actions performed), 110.1 and 302.6 (a card put onto the battlefield). Two defects found
here are mended (a nested dict shared from mid-game on, a schedule kept after its list was
changed in place); the tests guard them.
"""

from __future__ import annotations

import pytest

from harness.running.execution import Session
from harness.running.runner import run
from invariants import select
from invariants.base import Invariant
from reference_engine.game import Game

from .outside_engines import CounterEngine, CounterGame, EntryKeepingGame, EntryViewGame, HonestCounterGame
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


def _played(engine, events=EVENTS, *objects) -> tuple[Session, list[list[str]]]:
    session = Session(engine, board(*objects), select(engine.info.capabilities))
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


def test_an_invariant_put_in_place_of_another_in_the_same_list_is_checked():
    """A session's invariants are the list it is given, as it is when the session runs."""
    engine = CounterEngine(game=HonestCounterGame)
    invariants = select(engine.info.capabilities)
    Session(engine, board(), invariants).step(ENTER, Decider())  # a schedule made for the list
    invariants[0] = Invariant("outside.always", "generic", (), (), frozenset(), lambda t: ["found"], "always")
    found = Session(engine, board(), invariants).step(ENTER, Decider())
    assert "outside.always" in [v.invariant for v in found]


class _OwnObserveGame(Game):
    """A fork observing with its own method: the same observation as the reference engine's, but
    the adapter can't know it shares nothing."""

    def observe(self):
        return super().observe()


class _OwnEntryGame(Game):
    """A fork building each entry with its own method: it may hand out its own state in it."""

    def _observe_object(self, obj, ch):
        return super()._observe_object(obj, ch)


class _CopyingGame(Game):
    """The reference engine's game giving out a fresh copy of each unchanged object's entry."""

    shares_unchanged_entries = False


def test_only_a_game_observing_with_the_reference_engines_methods_is_taken_as_never_changing_its_observations():
    """A session looks for shared parts in every observation of an engine, except one whose game
    declares it never changes an observation once given out: the reference engine's (sharing
    unchanged entries or copying them), and a fork of it only while it observes and builds entries
    with the package's methods."""
    from harness.adapters.reference import ReferenceAdapter, ReferenceGame

    engine = ReferenceAdapter()
    assert Session(engine, board(obj("b", "Grizzly Bears")), []).fresh is True
    assert ReferenceGame(_CopyingGame(board(obj("b", "Grizzly Bears")))).fresh_observations is True
    assert ReferenceGame(_OwnObserveGame(board(obj("b", "Grizzly Bears")))).fresh_observations is False
    assert ReferenceGame(_OwnEntryGame(board(obj("b", "Grizzly Bears")))).fresh_observations is False
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


class _SaysReferenceViewGame(EntryViewGame):
    """The engine changing its entries in place, saying what the reference engine's game says."""

    fresh_observations = True
    shares_unchanged_entries = True


@pytest.mark.parametrize("game", [EntryKeepingGame, EntryViewGame, _SaysReferenceViewGame],
                         ids=["keeps", "changes-in-place", "says-reference"])
def test_an_engine_giving_out_the_same_entries_again_is_judged_right(game):
    """Only the reference engine's game is trusted to never change an entry it gives out again: an
    engine handing out the same entry dicts (unchanged, or changed in place as it is observed
    again, whatever it says of itself) is copied from the start, where a Forest's entry is given
    out twice. The correct engine has no finding; without 704.5q the counters on n1 are found at
    the -1/-1 step, though the check reads only the objects changed since the step before (n1's
    entry there is the very dict of the step before for the engine changing it in place)."""
    forest = obj("f", "Forest")
    session, found = _played(CounterEngine(game=game), EVENTS, forest)
    assert session.fresh is False and session.copies is True
    assert found == [[], [], [], []]
    assert [o["objects"]["n1"]["counters"] for o in session.observations[1:]] == RIGHT
    _, found = _played(CounterEngine(bugs={"no_annihilation"}, game=game), EVENTS, forest)
    assert found == [[], [], [], ["sba.counter_annihilation"]]


def test_an_engine_changing_its_entries_in_place_is_found_sharing_at_the_step_it_starts():
    """No object on the board: the first entry the engine changes in place and gives out again is
    n1's, at the first +1/+1 step (that step is not judged: its ``before`` changed with it); every
    observation is copied from then on, and 704.5q's bug is found at the -1/-1 step."""
    session, found = _played(CounterEngine(bugs={"no_annihilation"}, game=_SaysReferenceViewGame))
    assert session.copies is True and found == [[], [], [], ["sba.counter_annihilation"]]
