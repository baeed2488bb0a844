"""What the mana invariants expect of a mana ability's mana (:mod:`invariants.mana_model`,
:mod:`invariants.mana`): the mana each order of the "tapped for mana" replacement effects gives
(CR 616.1, 106.12b), each result once, and the shape of a mana pool (CR 106.1b, 106.4)."""

from __future__ import annotations

from enum import IntEnum
from itertools import permutations

import pytest

import invariants.mana_model as M
from harness.protocol import Transition
from invariants.mana import pool_shape


#: Replacement effects (kind, factor) as :func:`invariants.mana_model.replacements_for` gives them:
#: Mana Reflection (twice as much), Nyxbloom Ancient (three times), Contamination ({B} instead).
_TWICE, _THRICE, _BLACK = ("multiply", 2), ("multiply", 3), ("black", 1)


@pytest.mark.parametrize("effects", [[], [_TWICE], [_BLACK], [_TWICE, _BLACK], [_BLACK, _TWICE, _THRICE],
                                     [_TWICE, _TWICE, _BLACK, _THRICE], [_BLACK, _BLACK, _TWICE],
                                     [_TWICE, _THRICE, _TWICE], [_BLACK, _TWICE, _BLACK, _THRICE, _TWICE]])
def test_every_order_of_the_replacement_effects_gives_one_of_the_outcomes(effects):
    """CR 616.1: the player chooses the order; the outcomes are the mana each order gives (applied
    one after the other), each once."""
    mana = {"G": 1, "U": 2}
    orders = {tuple(M.apply_in_order(dict(mana), order).items()) for order in permutations(effects)}
    found = [tuple(result.items()) for result in M.outcomes(mana, effects)]
    assert sorted(found) == sorted(orders) and len(found) == len(set(found))


def test_the_outcomes_of_contamination_and_doubling():
    """Mana Reflection then Contamination gives {B}; Contamination first gives {B}{B}; two
    multiplying effects give one result whatever their order."""
    assert M.outcomes({"G": 1}, [_TWICE, _BLACK]) == [{"B": 1}, {"B": 2}]
    assert M.outcomes({"G": 1, "U": 1}, [_TWICE, _THRICE]) == [{"G": 6, "U": 6}]
    assert M.outcomes({"G": 1}, [_BLACK, _TWICE, _THRICE]) == [{"B": 1}, {"B": 2}, {"B": 3}, {"B": 6}]


class _Amount(IntEnum):
    ONE = 1


@pytest.mark.parametrize("amount, sound", [(0, True), (3, True), (_Amount.ONE, True), (True, False), (-1, False),
                                           (1.0, False), ("1", False)])
def test_a_pool_holds_an_amount_of_each_type(amount, sound):
    """CR 106.1b, 106.4: a mana pool holds a whole amount, 0 or more, of each type (not a truth value)."""
    found = {"W": amount, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}
    after = {"players": {"P1": {"mana_pool": found}, "P2": {"mana_pool": dict.fromkeys("WUBRGC", 0)}}}
    assert pool_shape(Transition({}, {"type": "pass_priority"}, after)) == ([] if sound else [
        f"P1's mana_pool is {found!r}; expected an amount >= 0 of each of W U B R G C"])


def test_players_without_a_pool_are_named_and_none_observed_is_no_case():
    """CR 106.4: with mana pools observed, a player shown without one is malformed (whatever the order
    of the players); no pool observed at all (or no player) is not this check's case."""
    sound = {"mana_pool": dict.fromkeys("WUBRGC", 0)}
    for players in ({"P1": sound, "P2": {"life": 20}}, {"P2": {"life": 20}, "P1": sound}):
        assert pool_shape(Transition({}, {"type": "pass_priority"}, {"players": players})) == [
            "P2's mana_pool is None; expected an amount >= 0 of each of W U B R G C"]
    for players in ({}, {"P1": {"life": 20}, "P2": {"life": 20}}):
        assert pool_shape(Transition({}, {"type": "pass_priority"}, {"players": players})) is None
