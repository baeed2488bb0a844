"""The template invariants (``invariants/templates.py``, ``spell_effects.py``, ``static_bonuses.py``):
a correct step passes, a wrong one fails, a step they can't judge is "not applicable" (None), and
none fires on the reference engine.

Observations are written by hand in ``tests/template_cases.py`` (expected values from the Oracle
texts and the CR rules cited there); ``tests/test_invariants.py`` also runs them against every
other invariant.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from harness.connection.loading import load_engine
from harness.running.runner import run
from invariants import REGISTRY, Decision, Transition, views
from reference_engine import ReferenceEngine

from . import template_cases as tc
from .scenario_helpers import Decider, aura, board, obj

NAMES = sorted(tc.CASES)


#: Template invariants whose cases live with their rules area's (tests/steps_cases.py).
ELSEWHERE = {"templates.life_from_the_game", "templates.creature_dies_triggers", "templates.divided_damage"}


def test_every_template_invariant_is_registered_with_its_rules():
    assert set(NAMES) | ELSEWHERE == {n for n in REGISTRY if n.startswith("templates.")}
    for name in NAMES:
        assert REGISTRY[name].rules and REGISTRY[name].family == "rules"


@pytest.mark.parametrize("name", NAMES)
def test_correct_step_passes(name):
    assert REGISTRY[name].check(tc.CASES[name][0]()) == []


@pytest.mark.parametrize("name", NAMES)
def test_wrong_step_fails(name):
    messages = REGISTRY[name].check(tc.CASES[name][1]())
    assert messages and any(tc.CASES[name][2] in m for m in messages), messages


@pytest.mark.parametrize("name, holds", tc.MORE_HOLDS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(tc.MORE_HOLDS)])
def test_more_correct_steps(name, holds):
    assert REGISTRY[name].check(holds()) == []


@pytest.mark.parametrize("name, broken, says", tc.MORE_BROKEN, ids=[f"{n}-{w}" for n, _, w in tc.MORE_BROKEN])
def test_more_wrong_steps(name, broken, says):
    messages = REGISTRY[name].check(broken())
    assert messages and any(says in m for m in messages), messages


# --------------------------------------------------------------------------- not applicable


def _with(t: Transition, **changes) -> Transition:
    return replace(copy.deepcopy(t), **changes)  # made anew: its log follows after and illegal


def test_lifelink_damage_to_a_player_is_the_damage_invariants():
    """Child of Night hits P2: ``damage.player_loses_life`` checks it (no double counting)."""
    t = tc.child_hits_warrior()
    t.event = {"type": "damage", "source": "c", "target": "P2", "amount": 2}
    assert REGISTRY["templates.lifelink_on_any_damage"].check(t) is None


def test_lifelink_with_a_trigger_in_the_log_is_not_judged():
    t = tc.child_hits_warrior(20)
    t.after["log"].append({"kind": "trigger", "source": "w", "ability": "dies", "controller": "P2"})
    assert REGISTRY["templates.lifelink_on_any_damage"].check(t) is None


def test_printed_deathtouch_is_sba_deathtouch_damages():
    """Vampire Nighthawk's deathtouch is printed: ``sba.deathtouch_damage`` checks it."""
    t = tc.collared_bears_hit_warrior(dies=False)
    for obs in (t.before, t.after):
        obs["objects"]["b"]["name"] = "Vampire Nighthawk"
    assert REGISTRY["templates.deathtouch_from_any_source"].check(t) is None
    assert REGISTRY["sba.deathtouch_damage"].check(t)


def test_optional_enters_trigger_declined_is_not_judged(monkeypatch):
    """Tranquil Cove's "you gain 1 life" made a "you may" ability (a model as the reader gives for
    "When ~ enters, you may ..."): answered "no" it did nothing, with no "may" answer it can't be
    told (None); answered "yes", the missing life is a violation."""
    import dataclasses

    import invariants.templates as T

    real = T.read_model("Tranquil Cove")
    fake = dataclasses.replace(real, abilities=tuple(
        dataclasses.replace(a, optional=True) if a.trigger == "enters" else a for a in real.abilities))
    original = T.read_model
    monkeypatch.setattr(T, "read_model", lambda name: fake if name == "Tranquil Cove" else original(name))
    t = tc.cove_enters(p1_life=20)
    assert T.enters_trigger_effects(t) is None
    t.decisions = [Decision("P1", "may", ("yes", "no"), "no")]
    assert T.enters_trigger_effects(t) is None
    t.decisions = [Decision("P1", "may", ("yes", "no"), "yes")]
    assert T.enters_trigger_effects(t)


def test_destroy_with_a_regeneration_shield_or_umbra_armor_is_not_judged():
    t = tc.ending_kills(on=True)
    t.before["objects"]["b"]["regeneration_shields"] = 1
    assert REGISTRY["templates.spell_destroys"].check(t) is None
    t = tc.ending_kills(on=True)
    t.before["objects"]["h"] = tc.card("Hyena Umbra", types=["Enchantment"], subtypes=["Aura"], attached_to="b",
                                       keywords=["umbra armor"], owner="P2")
    assert REGISTRY["templates.spell_destroys"].check(t) is None


def test_an_illegal_target_or_an_unmodelled_spell_is_not_judged():
    t = tc.ending_kills(on=True)
    t.before["objects"]["b"]["subtypes"] = ["Elf"]  # "non-Elf": not a legal target; the engine should refuse
    assert REGISTRY["templates.spell_destroys"].check(t) is None
    t = tc.ending_kills(on=True)
    t.event["card"] = "Healing Salve"  # a modal spell: not read
    assert REGISTRY["templates.spell_destroys"].check(t) is None
    assert REGISTRY["templates.spell_destroys"].check(_with(tc.ending_kills(on=True), illegal="illegal_target")) \
        is None


def test_protection_makes_spell_damage_not_judged():
    t = tc.strike_wurm(0)
    t.before["objects"]["c"]["keywords"] = ["protection from red"]
    assert REGISTRY["templates.spell_deals_damage"].check(t) is None


def test_a_bonus_is_not_judged_beside_an_unmodelled_permanent():
    t = tc.strength_moves(left=(3, 4))
    for obs in (t.before, t.after):
        obs["objects"]["o"] = tc.card("Octopus Umbra", types=["Enchantment"], subtypes=["Aura"], attached_to=None,
                                      zone="exile")
    assert REGISTRY["templates.attached_bonus_while_attached"].check(t) is not None  # in exile: no effect
    for obs in (t.before, t.after):
        obs["objects"]["o"]["zone"] = "battlefield"
        obs["objects"]["o"]["attached_to"] = "b"
    views.forget()  # the observations changed in place (a session never does): their views go
    assert REGISTRY["templates.attached_bonus_while_attached"].check(t) is None


# --------------------------------------------------------------------------- the reference engine


def _reference_step(objects, event, *answers) -> Transition:
    game = ReferenceEngine().new_game(board(*objects))
    before = game.observe()
    game.apply(event, Decider(*answers))
    return Transition(before, event, game.observe())


def test_reference_engine_umbra_joins_with_its_bonus():
    """Hyena Umbra ("Enchanted creature gets +1/+1 and has first strike.") put onto Grizzly Bears."""
    t = _reference_step([obj("b", "Grizzly Bears")], {"type": "put_onto_battlefield", "id": "h", "card": "Hyena Umbra",
                                                      "controller": "P1", "attach_to": "b"})
    assert REGISTRY["templates.attached_bonus_while_attached"].check(t) == []


def test_reference_engine_umbra_moved():
    t = _reference_step([obj("a", "Grizzly Bears"), obj("b", "Grizzly Bears"), aura("h", "Hyena Umbra", "a")],
                        {"type": "attach", "aura": "h", "to": "b"})
    assert REGISTRY["templates.attached_bonus_while_attached"].check(t) == []


@pytest.mark.parametrize("event, name", [
    ({"type": "cast", "card": "Giant Growth", "controller": "P1", "targets": ["b"]},
     "templates.spell_pt_until_end_of_turn"),
    ({"type": "cast", "card": "Shock", "controller": "P1", "targets": ["b"]}, "templates.spell_deals_damage"),
    ({"type": "cast", "card": "Murder", "controller": "P1", "targets": ["b"]}, "templates.spell_destroys"),
    ({"type": "cast", "card": "Raise the Alarm", "controller": "P1", "targets": [], "token_ids": ["s1", "s2"]},
     "templates.spell_creates_tokens"),
])
def test_reference_engine_spells_pass(event, name):
    t = _reference_step([obj("b", "Grizzly Bears", owner="P2")], event)
    assert REGISTRY[name].check(t) == []


def test_no_template_invariant_fires_on_the_reference_engine():
    """A short fuzz run of the reference engine (the cards it plays today: the curated pool)."""
    result = run(load_engine("reference"), max_examples=20, seed=0, database=None, shrink=False, invariant_names=NAMES)
    assert result.findings == [], [f.violation for f in result.findings]
    assert sum(result.stats.applicable.get(n, 0) for n in NAMES) > 0


BEARS, WURM = obj("a", "Grizzly Bears"), obj("w", "Craw Wurm", owner="P2")
LIBRARY = [obj(f"l{i}", "Grizzly Bears", zone="library") for i in range(3)]


def _cast(name, *targets, **more):
    return {"type": "cast", "card": name, "controller": "P1", "targets": list(targets), **more}


@pytest.mark.parametrize("objects, event, names", [
    ([BEARS], {"type": "put_onto_battlefield", "id": "x", "card": "Tranquil Cove", "controller": "P1",
               "attach_to": None}, ["templates.enters_tapped", "templates.enters_trigger_effects"]),
    ([BEARS], {"type": "put_onto_battlefield", "id": "x", "card": "Lone Missionary", "controller": "P1",
               "attach_to": None}, ["templates.enters_trigger_effects"]),
    ([BEARS], _cast("Lightning Strike", "P2"), ["templates.spell_deals_damage", "templates.spell_changes_life"]),
    ([WURM], _cast("Lightning Strike", "w"), ["templates.spell_deals_damage"]),
    ([BEARS, *LIBRARY], _cast("Divination"), ["templates.spell_draws"]),
    ([BEARS], _cast("Dragon Fodder", token_ids=["g1", "g2"]), ["templates.spell_creates_tokens"]),
    ([BEARS], _cast("Battlegrowth", "a"), ["templates.spell_puts_counters"]),
    ([BEARS], _cast("Angel's Mercy"), ["templates.spell_changes_life"]),
    ([BEARS], _cast("Inspired Charge"), ["templates.spell_pt_until_end_of_turn"]),
    ([BEARS, obj("m", "Darksteel Myr", owner="P2")], _cast("Eyeblight's Ending", "m"), ["templates.spell_destroys"]),
    ([BEARS, obj("b", "Grizzly Bears"), aura("h", "Holy Strength", "a")], {"type": "attach", "aura": "h", "to": "b"},
     ["templates.attached_bonus_while_attached"]),
    ([BEARS, obj("k", "Basilisk Collar", attached_to="a")], {"type": "sacrifice", "object": "k"},
     ["templates.attached_bonus_while_attached"]),
    ([BEARS, obj("g", "Glorious Anthem")], {"type": "destroy", "targets": ["g"], "cant_be_regenerated": False},
     ["templates.anthem_bonus_while_on_battlefield"]),
    ([BEARS], {"type": "put_onto_battlefield", "id": "g", "card": "Glorious Anthem", "controller": "P1",
               "attach_to": None}, ["templates.anthem_bonus_while_on_battlefield"]),
    ([obj("a", "Child of Night"), WURM], {"type": "damage", "source": "a", "target": "w", "amount": 2},
     ["templates.lifelink_on_any_damage"]),
], ids=lambda v: v.get("card") or v["type"] if isinstance(v, dict) else None)
def test_reference_engine_plays_database_cards_as_their_models_say(objects, event, names):
    """The reference engine plays every modelled card from its model: each step passes (``[]``: the
    invariant applied and holds), and no other template invariant objects to it."""
    t = _reference_step(objects, event)
    assert {n: REGISTRY[n].check(t) for n in names} == dict.fromkeys(names, [])
    assert not {n: r for n in NAMES if (r := REGISTRY[n].check(t))}
