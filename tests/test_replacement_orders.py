"""What the mana invariants expect of a mana ability's mana (:mod:`invariants.mana_model`,
:mod:`invariants.mana`): the mana each order of the "tapped for mana" replacement effects gives
(CR 616.1, 106.12b), each result once, and the shape of a mana pool (CR 106.1b, 106.4)."""

from __future__ import annotations

from enum import IntEnum

import pytest

import invariants.mana_model as M
from harness.protocol import Transition
from invariants.mana import pool_shape


def test_each_order_of_the_replacement_effects_gives_its_mana_once():
    """CR 616.1: the player chooses the order; each order's mana is listed once, in the order the
    orders first give it. Mana Reflection (twice as much) then Contamination gives {B}; Contamination
    first gives {B}{B}; two multiplying effects give one result whatever their order."""
    assert M.outcomes({"G": 1}, [("multiply", 2), ("black", 1)]) == [{"B": 1}, {"B": 2}]
    assert M.outcomes({"G": 1, "U": 1}, [("multiply", 2), ("multiply", 3)]) == [{"G": 6, "U": 6}]
    assert M.outcomes({"G": 1}, [("black", 1), ("multiply", 2), ("multiply", 3)]) == [
        {"B": 6}, {"B": 3}, {"B": 1}, {"B": 2}]
    assert M.outcomes({"C": 2}, []) == [{"C": 2}]


def test_the_outcomes_given_out_are_the_callers_own():
    """The outcomes of one mana and effects are worked out once: a caller that changes what it was
    given changes nothing the next caller gets."""
    first = M.outcomes({"G": 1}, [("multiply", 2)])
    first[0]["G"] = 99
    first.append({"B": 1})
    assert M.outcomes({"G": 1}, [("multiply", 2)]) == [{"G": 2}]


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
