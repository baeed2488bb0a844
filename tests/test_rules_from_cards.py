"""Rules follow from the cards an engine declares, not from claims: a legend declared means the
legend rule is checked, an Aura or an Equipment declared means boards with it attached, a
deathtouch creature 704.5h, and so on (harness.generation.plan.implied_capabilities). Claims are left
for what no card implies (event kinds, counters, tokens, combat); a claim that a card
implies anyway is accepted and reported by ``rulesfuzz check`` as changing nothing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from harness.generation import strategies as S
from harness.running.conformance import redundant_claims
from harness.generation.plan import Plan, effective_capabilities
from harness.protocol import EngineInfo
from harness.running.runner import run

from .test_declared_cards import VANILLA, Recording, drive

LEGEND = "Isamaru, Hound of Konda"  # Legendary Creature — Dog 2/2 (curated pool)
DB_LEGEND = "Jedit Ojanen"  # Legendary Creature — Cat Warrior 5/5, no rules text (database)


def boards_of(plan, n=200):
    found = []

    @settings(max_examples=n, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(S.boards(plan))
    def collect(board):
        found.append(board)

    collect()
    return found


def test_a_declared_legend_turns_on_the_legend_rule_without_a_claim():
    info = EngineInfo("e", "1", frozenset({"destroy"}), cards=frozenset({VANILLA, LEGEND}))
    plan = Plan.for_info(info)
    assert "legend_rule" not in plan.claimed and "legend_rule" in plan.capabilities
    assert plan.implied["legend_rule"].startswith(LEGEND)
    result = run(Recording(cards_=info.cards), max_examples=5, seed=0, database=None)
    assert {"sba.legend_rule", "legend_rule.controller_chooses"} <= set(result.invariants)


def test_a_declared_legend_enters_beside_one_of_the_same_name_under_one_controller():
    engine = Recording(cards_=frozenset({VANILLA, LEGEND}))
    drive(engine, examples=60)
    legends = [e for e in engine.events if e.get("type") == "put_onto_battlefield" and e.get("card") == LEGEND]
    assert legends
    # The stub refuses every event, so a pair comes from a board legend and an entering one.
    boards_with_legend = [b for b in engine.boards for o in b["objects"] if o["card"] == LEGEND]
    assert boards_with_legend


def test_an_unclaimed_legend_of_the_pool_is_still_left_out_with_cards_none():
    plan = Plan.of({"destroy"})
    assert LEGEND not in plan.lists["creatures"] and "legend_rule" not in plan.capabilities


def test_a_declared_aura_and_equipment_are_attached_on_boards():
    plan = Plan.of({"destroy"}, {VANILLA, "Holy Strength", "Bonesplitter"})
    boards = boards_of(plan)
    creatures = {o["id"] for b in boards for o in b["objects"] if o["card"] == VANILLA}
    auras = [o for b in boards for o in b["objects"] if o["card"] == "Holy Strength"]
    equipment = [o for b in boards for o in b["objects"] if o["card"] == "Bonesplitter"]
    assert auras and all(o.get("attached_to") in creatures for o in auras)  # enchant creature
    assert any(o.get("attached_to") for o in equipment) and any(not o.get("attached_to") for o in equipment)


def test_attach_moves_an_equipment_too():
    engine = Recording(cards_=frozenset({VANILLA, "Bonesplitter"}))
    drive(engine, examples=60)
    equipment = {o["id"] for b in engine.boards for o in b["objects"] if o["card"] == "Bonesplitter"}
    assert any(e["type"] == "attach" and e["aura"] in equipment | {f"n{i}" for i in range(20)}
               for e in engine.events)


def test_card_keywords_imply_their_rules():
    plan = Plan.of({"destroy"}, {VANILLA, "Vampire Nighthawk", "Darksteel Myr", "Lightning Bolt", "Disfigure"})
    assert {"deathtouch", "sba.deathtouch_damage", "indestructible", "sba.lethal_damage",
            "sba.zero_toughness"} <= set(plan.implied)
    assert plan.implied["sba.lethal_damage"].startswith("Lightning Bolt")
    umbra = Plan.of(set(), {VANILLA, "Hyena Umbra"})
    assert "umbra_armor" in umbra.implied and umbra.has("umbra Auras")


def test_creatures_beside_claimed_damage_imply_the_lethal_damage_rule_for_the_pool_too():
    assert "sba.lethal_damage" in effective_capabilities(EngineInfo("e", "1", frozenset({"damage"})))
    assert "sba.lethal_damage" not in effective_capabilities(EngineInfo("e", "1", frozenset({"destroy"})))


def test_a_claim_cards_imply_is_accepted_and_reported_as_changing_nothing():
    info = EngineInfo("e", "1", frozenset({"destroy", "legend_rule"}), cards=frozenset({VANILLA, LEGEND}))
    assert redundant_claims(info) == {"legend_rule": LEGEND}
    assert redundant_claims(EngineInfo("e", "1", frozenset({"legend_rule"}))) == {}


def test_a_database_legend_is_generated_by_its_model():
    plan = Plan.of(set(), {VANILLA, DB_LEGEND})
    assert DB_LEGEND in plan.lists["legends"] and plan.lists["creatures"][0] == VANILLA
    assert "legend_rule" in plan.implied
