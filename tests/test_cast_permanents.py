"""Casting permanent spells (issue 21 item 2): the ``cast`` event may name a permanent card.

Expected values come from the rules and the cards' Oracle text: a permanent spell resolving
"becomes a permanent and enters the battlefield under the control of the spell's controller"
(CR 608.3a); an Aura spell requires a target (303.4a) and enters attached to it (608.3c); with an
illegal target it doesn't resolve (608.3b: in this no-stack model the cast is refused); a creature
is summoning sick (302.6); its enters abilities trigger (603.6a); a land is played, not cast
(305.1). Cards: Grizzly Bears 2/2; Lone Missionary 2/1 "When this creature enters, you gain 4
life."; Holy Strength "Enchant creature / Enchanted creature gets +1/+2."; Basilisk Collar
(Equipment); Forest (a land); Clone ("You may have Clone enter as a copy of any creature").
"""

from __future__ import annotations

import dataclasses

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.running.machine import EngineMachine, rule_gates
from harness.generation.plan import Plan
from harness.running.runner import run
from harness.wire.vocabulary import event_problem
from invariants import REGISTRY, Transition
from reference_engine import IllegalAction, Unsupported
from tests.scenario_helpers import Decider, new_game, obj, play

ENTERS = REGISTRY["spells.permanent_spell_enters"].check


def cast(name, *targets, by="P1", **extra):
    return {"type": "cast", "card": name, "controller": by, "targets": list(targets), **extra}


def refused(game, event, reason):
    before = game.observe()
    with pytest.raises(IllegalAction) as info:
        game.apply(event, Decider())
    assert info.value.reason == reason
    assert game.observe() == before


def checked(game, event):
    """Apply ``event`` and check the cast-permanent invariant on the step."""
    before = game.observe()
    after, asked = play(game, event)
    return after, ENTERS(Transition(before, event, after, decisions=asked))


# ------------------------------------------------------------------ vocabulary
def test_the_vocabulary_takes_a_permanent_spell_with_its_id():
    assert event_problem(cast("Grizzly Bears", id="n1")) is None
    assert event_problem(cast("Holy Strength", "b", id="n1")) is None
    assert "is not an instant or sorcery" in event_problem(cast("Grizzly Bears"))  # no id: as before
    assert "played, not cast (CR 305.1)" in event_problem(cast("Forest", id="n1"))
    assert event_problem(cast("Murder", "b")) is None


# ------------------------------------------------------------------ the reference engine
def test_a_creature_spell_resolves_under_its_casters_control():
    game = new_game(obj("w", "Grizzly Bears", owner="P2"))
    after, verdict = checked(game, cast("Grizzly Bears", by="P2", id="n1"))
    bears = after["objects"]["n1"]
    assert (bears["zone"], bears["controller"], bears["owner"], bears["summoning_sick"]) == (
        "battlefield", "P2", "P2", True)
    assert {"kind": "zone_change", "object": "n1", "from": None, "to": "battlefield",
            "cause": {"event": "cast", "by": "P2"}} in after["log"]
    assert verdict == []


def test_its_enters_ability_triggers():
    """Lone Missionary: "When this creature enters, you gain 4 life." (CR 603.6a)"""
    game = new_game(obj("w", "Grizzly Bears"))
    after, verdict = checked(game, cast("Lone Missionary", id="n1"))
    assert after["players"]["P1"]["life"] == 24 and verdict == []
    assert any(e.get("kind") == "trigger" and e.get("source") == "n1" for e in after["log"])


def test_an_aura_spell_enters_attached_to_its_target():
    game = new_game(obj("b", "Grizzly Bears", owner="P2"))
    after, verdict = checked(game, cast("Holy Strength", "b", id="n1"))
    assert after["objects"]["n1"]["attached_to"] == "b" and after["objects"]["n1"]["controller"] == "P1"
    assert (after["objects"]["b"]["power"], after["objects"]["b"]["toughness"]) == (3, 4)
    assert verdict == []


def test_an_aura_spell_with_an_illegal_target_is_refused():
    """CR 303.4a, 608.3b: Holy Strength must target a creature; a Forest is no legal target."""
    game = new_game(obj("b", "Grizzly Bears"), obj("f", "Forest"))
    refused(game, cast("Holy Strength", "f", id="n1"), "illegal_target")
    refused(game, cast("Holy Strength", id="n1"), "illegal_target")
    refused(game, cast("Holy Strength", "b", "b", id="n1"), "illegal_target")
    refused(game, cast("Holy Strength", "ghost", id="n1"), "no_such_object")


def test_other_permanent_spells_take_no_target_and_equipment_enters_unattached():
    game = new_game(obj("b", "Grizzly Bears"))
    refused(game, cast("Grizzly Bears", "b", id="n1"), "illegal_target")
    after, verdict = checked(game, cast("Basilisk Collar", id="n1"))
    assert after["objects"]["n1"]["zone"] == "battlefield" and after["objects"]["n1"]["attached_to"] is None
    assert verdict == []


def test_bad_casts_are_refused():
    game = new_game(obj("b", "Grizzly Bears"))
    refused(game, cast("Forest", id="n1"), "not_a_spell")  # CR 305.1
    refused(game, cast("Grizzly Bears"), "not_a_spell")  # no id: as before
    refused(game, cast("Grizzly Bears", id="b"), "bad_event")  # an id in use
    refused(game, cast("Grizzly Bears", id="P1"), "bad_event")
    refused(game, cast("Grizzly Bears", id="n1", by="P3"), "bad_event")
    refused(game, cast("Grizzly Bears", id="n1", x=2), "bad_event")


def test_a_card_that_may_enter_as_a_copy_is_declined():
    game = new_game(obj("b", "Grizzly Bears"))
    with pytest.raises(Unsupported):
        game.apply(cast("Clone", id="n1"), Decider())


# ------------------------------------------------------------------ generation
def _declared(*names):
    engine = ReferenceAdapter(name="reference-declared")
    engine.info = dataclasses.replace(engine.info, cards=frozenset(names))
    return engine


def test_only_engines_that_declare_cards_cast_permanents():
    curated = rule_gates(EngineMachine, Plan.for_info(ReferenceAdapter().info))
    assert "card database" in curated["cast_creature_spell"]
    assert "card database" in curated["cast_aura_spell"]
    curated_only = rule_gates(EngineMachine, Plan.for_info(_declared("Grizzly Bears", "Murder").info))
    assert curated_only["cast_creature_spell"] and curated_only["cast_aura_spell"]  # the tiny engine's case
    declared = rule_gates(EngineMachine, Plan.for_info(_declared("Lone Missionary", "Holy Strength").info))
    assert declared["cast_creature_spell"] is None and declared["cast_aura_spell"] is None
    # A new kind of event is a claim: an engine written before it (the pool engine) doesn't get it.
    unclaimed = _declared("Lone Missionary", "Holy Strength")
    unclaimed.info = dataclasses.replace(unclaimed.info, capabilities=unclaimed.info.capabilities - {"cast_permanents"})
    gates = rule_gates(EngineMachine, Plan.for_info(unclaimed.info))
    assert "cast_permanents" in gates["cast_creature_spell"] and "cast_permanents" in gates["cast_aura_spell"]


class _Watched:
    """The engine, with every event it accepts noted (to see the casts generation made)."""

    def __init__(self, engine, seen):
        self.info, self._engine, self._seen = engine.info, engine, seen

    def new_game(self, board):
        game, seen = self._engine.new_game(board), self._seen

        class Game:
            def apply(self, event, decider):
                game.apply(event, decider)
                seen.append(event)

            def observe(self):
                return game.observe()

        return Game()


def test_a_fuzz_run_casts_declared_permanents_and_finds_nothing():
    seen: list[dict] = []
    engine = _Watched(_declared("Grizzly Bears", "Lone Missionary", "Centaur Courser", "Holy Strength",
                                "Lightning Strike"), seen)
    result = run(engine, max_examples=25, seed=3, database=None, shrink=False)
    assert result.findings == [], [f.violation for f in result.findings]
    casts = [e for e in seen if e["type"] == "cast" and "id" in e]
    assert any(e["card"] in ("Lone Missionary", "Centaur Courser") for e in casts)
    assert not any(e["card"] == "Grizzly Bears" for e in casts)  # a curated card: not cast by generation
    assert any(e["card"] == "Holy Strength" and len(e["targets"]) == 1 for e in casts)
    assert result.stats.applicable.get("spells.permanent_spell_enters", 0) > 0


def test_an_aura_bonus_on_a_switched_creature_moves_switched():
    """Found by casting Holy Strength: Grizzly Bears with its P/T switched (layer 7d) and Holy Strength
    (+1/+2, layer 7c, applied first, CR 613.4) is 4/3; when the Aura moves away it is 2/2 again, and
    the creature it joins is 3/4 (templates.attached_bonus_while_attached swaps the bonus it expects)."""
    game = new_game(obj("c0", "Grizzly Bears"), obj("c1", "Grizzly Bears"))
    play(game, {"type": "switch_pt", "object": "c0"})
    after, _ = play(game, cast("Holy Strength", "c0", id="n1"))
    assert (after["objects"]["c0"]["power"], after["objects"]["c0"]["toughness"]) == (4, 3)
    event = {"type": "attach", "aura": "n1", "to": "c1"}
    moved, asked = play(game, event)
    assert [(moved["objects"][c]["power"], moved["objects"][c]["toughness"]) for c in ("c0", "c1")] == [(2, 2), (3, 4)]
    check = REGISTRY["templates.attached_bonus_while_attached"].check
    assert check(Transition(after, event, moved, decisions=asked)) == []
    wrong = {**moved, "objects": {**moved["objects"], "c0": {**moved["objects"]["c0"], "power": 3, "toughness": 1}}}
    assert check(Transition(after, event, wrong, decisions=asked))


def test_equipment_unattached_when_its_creature_dies_in_cleanup():
    """Found by a declared-card run: Lone Missionary (2/1) with a +1/+1 counter, equipped with
    Bonesplitter (+2/+0), Titanic Growth (+4/+4 until end of turn), two -1/-1 counters (704.5q leaves
    one): 7/4. In the cleanup step Titanic Growth ends (514.2): 3/0, it dies (704.5f) and Bonesplitter
    becomes unattached (301.5c). cleanup.nothing_else_ends holds: the attachment ended by a
    state-based action, not by the cleanup step."""
    game = new_game(obj("c0", "Lone Missionary", counters={"+1/+1": 1}), obj("e0", "Bonesplitter"))
    play(game, {"type": "attach", "aura": "e0", "to": "c0"})
    play(game, cast("Titanic Growth", "c0"))
    before, _ = play(game, {"type": "add_counters", "object": "c0", "kind": "-1/-1", "amount": 2})
    assert (before["objects"]["c0"]["power"], before["objects"]["c0"]["toughness"]) == (7, 4)
    event = {"type": "cleanup"}
    after, asked = play(game, event)
    assert after["objects"]["c0"]["zone"] == "graveyard" and after["objects"]["e0"]["attached_to"] is None
    check = REGISTRY["cleanup.nothing_else_ends"].check
    assert check(Transition(before, event, after, decisions=asked)) == []
    kept = {**after, "objects": {**after["objects"], "e0": {**after["objects"]["e0"], "tapped": True}}}
    assert "tapped changed" in " ".join(check(Transition(before, event, kept, decisions=asked)))
