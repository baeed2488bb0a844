"""Omnipresent Impostor and library searches in the harness: invariants, generation, mutants.

The invariants (``invariants/names_and_searches.py``) are tried on judge-style steps whose
expected verdicts come from the Impostor rulings (2024-11-08): a correct step passes, the
same step with what a ruling forbids fails. Generation is gated by the capability
``library_search``: an engine written from scratch that doesn't claim it (the tiny
engine) gets exactly the boards and rules it got before. Each mutant of this area is
found by the invariants alone (no differential oracle) within a small budget.
"""

from __future__ import annotations

import copy

import pytest

from harness.generation import strategies as S
from harness.connection.loading import load_engine
from harness.running.machine import EngineMachine, make_machine, rule_gates
from harness.generation.plan import Plan, card_needs
from harness.protocol import CAPABILITIES, Decision, Transition
from harness.rules.search import with_search_corner
from harness.running.runner import run
from invariants import REGISTRY
from reference_engine import ReferenceEngine
from tests.mutants import MUTANTS

import cards

from .impostor_cases import step
from .scenario_helpers import obj

IMPOSTOR, ELDER = "Omnipresent Impostor", "Sakura-Tribe Elder"
INVARIANTS = ("impostor.all_names_in_every_zone", "impostor.basic_supertype", "impostor.same_name",
              "search.impostor_may_be_found", "search.found_card_goes_on")
AREA_MUTANTS = ("impostor_has_token_names", "impostor_not_found_for_basic_land", "elder_puts_impostor_untapped",
                "impostor_names_only_on_battlefield", "one_impostor_per_search", "name_check_printed_name_only")
AREA_RULES = ("search_scene", "search_then_name_check", "name_check")


def check(name: str, t: Transition):
    return REGISTRY[name].check(t)


def elder_step(*answers):
    return step([obj("ste", ELDER), obj("imp", IMPOSTOR, zone="library"), obj("f", "Forest", zone="library")],
                {"type": "activate", "object": "ste", "ability": 0}, *answers)


# ------------------------------------------------------------------ invariants
def test_every_invariant_cites_its_ruling_and_needs_the_capability():
    for name in INVARIANTS:
        inv = REGISTRY[name]
        assert inv.requires == {"library_search"} and inv.rules
        assert inv.rulings and all(r.startswith("Omnipresent Impostor 2024-11-08") for r in inv.rulings)
    rulings = {r for name in INVARIANTS for r in REGISTRY[name].rulings}
    assert len(rulings) == 4  # every ruling of the Impostor's own: CDA, basic, names, searching


def test_names_missing_in_the_library_fail():
    """"functions in all zones": an Impostor in a library observed without its names is a violation."""
    t = step([obj("imp", IMPOSTOR, zone="library"), obj("bears", "Grizzly Bears")],
             {"type": "destroy", "targets": ["bears"]})
    assert check("impostor.all_names_in_every_zone", t) == []
    # each observation judged is a new one, as the harness's are (it never changes one once made:
    # invariants.on_change reads what a step changed by reference)
    t = copy.deepcopy(t)
    del t.after["objects"]["imp"]["names"]
    assert "without \"names\": \"all\"" in check("impostor.all_names_in_every_zone", t)[0]
    t = copy.deepcopy(t)
    t.after["objects"]["bears"]["names"] = "all"  # Grizzly Bears has one name
    assert len(check("impostor.all_names_in_every_zone", t)) == 2


def test_basic_supertype_missing_fails():
    t = step([obj("imp", IMPOSTOR, zone="graveyard"), obj("bears", "Grizzly Bears")],
             {"type": "destroy", "targets": ["bears"]})
    assert check("impostor.basic_supertype", t) == []
    t.after["objects"]["imp"]["supertypes"] = []
    assert check("impostor.basic_supertype", t)


def test_token_name_check_must_miss_the_impostor():
    """Bile Blight on a Soldier Token: the Impostor has no token name, so it must stay a 2/1."""
    objects = [obj("imp", IMPOSTOR), obj("s1", "Soldier Token", token=True), obj("s2", "Soldier Token", token=True)]
    t = step(objects, {"type": "cast", "card": "Bile Blight", "controller": "P2", "targets": ["s1"]})
    assert check("impostor.same_name", t) == []
    wrong = copy.deepcopy(t)
    wrong.after["objects"]["imp"]["zone"] = "graveyard"
    assert "shares no name" in check("impostor.same_name", wrong)[0]


def test_card_name_check_must_hit_the_impostor():
    """Bile Blight on Grizzly Bears (made 5/5 by counters): the Impostor shares the name, gets -3/-3."""
    objects = [obj("bears", "Grizzly Bears", counters={"+1/+1": 3}), obj("imp", IMPOSTOR, counters={"+1/+1": 3})]
    t = step(objects, {"type": "cast", "card": "Bile Blight", "controller": "P2", "targets": ["bears"]})
    assert check("impostor.same_name", t) == []
    assert (t.after["objects"]["imp"]["power"], t.after["objects"]["imp"]["toughness"]) == (2, 1)
    t.after["objects"]["imp"]["power"], t.after["objects"]["imp"]["toughness"] = 5, 4
    assert "shares a name" in check("impostor.same_name", t)[0]


def test_search_must_offer_the_impostor():
    """"you can find Omnipresent Impostor in place of one of those cards": a basic land search
    that doesn't offer it fails, and so does one never asked."""
    t = elder_step("imp")
    assert check("search.impostor_may_be_found", t) == [] and check("search.found_card_goes_on", t) == []
    narrowed = copy.deepcopy(t)
    narrowed.decisions = [Decision("P1", "search", ("nothing", "f"), "nothing")]
    assert "doesn't offer imp" in check("search.impostor_may_be_found", narrowed)[0]
    narrowed.decisions = []
    assert "without being asked" in check("search.impostor_may_be_found", narrowed)[0]


def test_found_impostor_enters_tapped():
    """"Sakura-Tribe Elder's activated ability lets you put an Omnipresent Impostor onto the battlefield tapped"."""
    t = elder_step("imp")
    t.after["objects"]["imp"]["tapped"] = False
    assert "enters the battlefield tapped" in check("search.found_card_goes_on", t)[0]


def test_engineer_puts_the_found_impostor_into_the_graveyard():
    t = step([obj("imp", IMPOSTOR, zone="library")], {"type": "put_onto_battlefield", "id": "ge",
                                                      "card": "Goblin Engineer", "controller": "P1",
                                                      "attach_to": None}, "imp")
    assert check("search.found_card_goes_on", t) == [] and check("search.impostor_may_be_found", t) == []
    t.after["objects"]["imp"]["zone"] = "battlefield"
    assert "goes into the graveyard" in check("search.found_card_goes_on", t)[0]


def test_several_impostors_for_several_cards():
    """Explosive Vegetation: after one Impostor is found, the second search still offers the other."""
    t = step([obj("a", IMPOSTOR, zone="library"), obj("b", IMPOSTOR, zone="library")],
             {"type": "cast", "card": "Explosive Vegetation", "controller": "P1", "targets": []}, "a", "b")
    assert check("search.impostor_may_be_found", t) == []
    t.decisions[1] = Decision("P1", "search", ("nothing",), "nothing")
    assert "doesn't offer b" in check("search.impostor_may_be_found", t)[0]


def test_card_needs_read_the_capability_from_card_data():
    for name in (IMPOSTOR, ELDER, "Explosive Vegetation", "Bile Blight"):
        assert "library_search" in card_needs(cards.card(name)), name
    assert "library_search" not in card_needs(cards.card("Goblin Engineer"))  # its search is a trigger
    assert "library_search" in CAPABILITIES


# ------------------------------------------------------------------ generation
def test_tiny_engine_without_the_capability_generates_as_before():
    """The tiny engine (written from scratch) doesn't claim library_search: its boards are the
    same strategy object (nothing more drawn), no card of the area is in its plan, and the
    area's rules are left out for that reason."""
    engine = load_engine("examples/engines/tiny/engine.py:engine")
    assert "library_search" not in engine.info.capabilities
    plan = Plan.of(engine.info.capabilities, engine.info.cards)
    boards = S.boards(plan, 4, 3)
    assert with_search_corner(boards, plan) is boards
    assert not plan.lists["searchers"] and not plan.lists["name_checks"] and not plan.plays(IMPOSTOR)
    gates = rule_gates(EngineMachine, plan)
    for name in AREA_RULES:
        assert gates[name] and "library_search" in gates[name]
    machine = make_machine(engine, [])
    assert all(getattr(machine, name) is None for name in AREA_RULES)


def test_the_capability_adds_the_search_corner():
    plan = Plan.of(ReferenceEngine().capabilities)
    boards = S.boards(plan, 4, 3)
    assert with_search_corner(boards, plan) is not boards
    assert all(rule_gates(EngineMachine, plan)[name] is None for name in AREA_RULES)


def test_the_reference_engine_runs_clean_and_reaches_every_invariant(outside_coverage):
    from harness.adapters.reference import ReferenceAdapter

    result = run(ReferenceAdapter(), max_examples=60, seed=3, database=None, shrink=False,
                 invariant_names=list(INVARIANTS))
    assert result.violation is None
    for name in INVARIANTS:
        assert result.stats.applicable.get(name, 0) > 0, name


# ------------------------------------------------------------------ mutants
@pytest.mark.parametrize("name", AREA_MUTANTS)
def test_each_mutant_is_found_by_the_invariants_with_a_small_budget(name):
    """Invariant-only mode (no differential oracle), 150 examples, seed 0, exploring (the default)."""
    assert name in MUTANTS and MUTANTS[name].invariant_gap is None
    result = run(MUTANTS[name].load(), max_examples=150, seed=0, database=None, shrink=False, explore=True)
    assert result.violation is not None, f"mutant {name} not found in {result.stats.examples} examples"
    assert result.violation.invariant in INVARIANTS
