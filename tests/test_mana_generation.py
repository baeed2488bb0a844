"""Generation of mana boards and events, gated by the capabilities ``mana`` and ``tap_untap_costs``.

An engine that claims them gets mana permanents on its boards and ``activate``,
``pass_step`` and ``begin_turn`` events; an engine that claims neither (the tiny engine,
written from scratch) gets none of them, and its runs are as before.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.adapters.reference import ReferenceAdapter
from harness.connection.loading import load_engine
from harness.rules.mana import ACTIVATED, MANA_ENCHANTMENTS, RULING_BOARDS, mana_objects
from harness.running.runner import run
from invariants import mana_model

TINY = Path(__file__).resolve().parent.parent / "examples" / "engines" / "tiny" / "engine.py"
MANA_EVENTS = {"activate", "pass_step", "begin_turn"}


def test_reference_engine_gets_mana_events(outside_coverage):
    """The reference engine claims both capabilities: a short run activates abilities and ends steps."""
    result = run(ReferenceAdapter(), max_examples=40, seed=1, database=None, shrink=False)
    assert result.violation is None
    assert MANA_EVENTS <= set(result.stats.events)


def test_engine_without_the_capabilities_is_unaffected():
    """The tiny engine claims neither ``mana`` nor ``tap_untap_costs``: no mana event, and
    the boards it is given hold only its own cards."""
    tiny = load_engine(f"{TINY}:engine")
    assert not {"mana", "tap_untap_costs"} & tiny.info.capabilities
    result = run(tiny, max_examples=40, seed=1, database=None, shrink=False)
    assert not MANA_EVENTS & set(result.stats.events)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_mana_corner_is_a_legal_board_part(data):
    """Every card of the mana corner is one whose abilities the card data describes, ids are
    unique, and {Q} creatures only appear when ``tap_untap_costs`` is claimed."""
    costs = data.draw(st.booleans())
    objects = data.draw(mana_objects(costs))
    ids = [o["id"] for o in objects]
    assert len(ids) == len(set(ids))
    for o in objects:
        if o.get("zone", "battlefield") != "battlefield":
            continue
        assert o["card"] in ACTIVATED or o["card"] in MANA_ENCHANTMENTS
        if not costs:
            assert not any(a.untap for a in mana_model.abilities(o["card"]))


def test_ruling_boards_name_known_cards():
    """Each ruling board is made of this area's cards, every one with Oracle data."""
    for ruling_board in RULING_BOARDS:
        for card, whose, state in ruling_board:
            assert card in ACTIVATED or card in MANA_ENCHANTMENTS
            assert whose in (0, 1) and state in ("", "tapped", "sick")
