"""Engines declare the cards they play: any Oracle name of the card database, and definitions
of cards the database doesn't have; generation draws them by what their text does (their
model), never by name; an unmodelled card is listed by ``rulesfuzz plan`` and never generated.

The engines here are written in the test (they read no reference engine): a recording stub
that builds any board from the card data, observes it back and refuses every event."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.stateful import run_state_machine_as_test

import cards
from harness.generation import strategies as S
from harness.interfaces.cli import main
from harness.connection.loading import EngineLoadError, check_engine
from harness.running.machine import make_machine
from harness.generation.plan import FULL, Plan
from harness.protocol import EngineInfo, IllegalAction
from harness.connection.rpc import _info_from_json
from harness.serve import info_to_json

#: Database cards (Oracle texts, 2019 templating) and what each is, from its text:
#: Llanowar Elves is in the curated pool; the others are not.
VANILLA = "Centaur Courser"  # Creature — Centaur Warrior 3/3, no rules text
DATABASE = {
    VANILLA: "creatures",
    "Vampire Nighthawk": "deathtouch_creatures",  # Flying, deathtouch, lifelink
    "Disfigure": "shrink_spells",  # Target creature gets -2/-2 until end of turn.
    "Holy Strength": "bonus_auras",  # Enchant creature / Enchanted creature gets +1/+2.
    "Bonesplitter": "equipment",  # Equipped creature gets +2/+0. / Equip {1}
    "Doom Blade": "destroy_spells",  # Destroy target nonblack creature.
}
UNMODELLED = "Healing Salve"  # Choose one — ... (a modal spell: no template reads it)
CUSTOM = {"name": "Playtest Pup", "mana_cost": "{1}{W}", "type_line": "Creature — Dog", "power": 2,
          "toughness": 3, "oracle_text": "Vigilance"}


def observed(o: dict) -> dict:
    card = cards.card(o["card"])
    return {"name": card.name, "zone": o.get("zone", "battlefield"), "owner": o.get("owner", "P1"),
            "controller": o.get("controller", o.get("owner", "P1")), "token": bool(o.get("token")),
            "tapped": bool(o.get("tapped")), "summoning_sick": False, "damage": o.get("damage", 0),
            "counters": dict(o.get("counters", {})), "attached_to": o.get("attached_to"), "combat": o.get("combat"),
            "regeneration_shields": o.get("regeneration_shields", 0), "supertypes": list(card.supertypes),
            "types": list(card.types), "subtypes": list(card.subtypes), "colors": list(card.colors),
            "keywords": sorted(card.keywords), "power": card.power, "toughness": card.toughness}


class Recording:
    """Builds any board from the card data, observes it, refuses every event; records both."""

    def __init__(self, cards_=frozenset(DATABASE) | {UNMODELLED}, capabilities=frozenset({"destroy"}),
                 definitions=()):
        self.info = EngineInfo("declared-stub", "0", frozenset(capabilities), cards=cards_,
                               card_definitions=tuple(definitions))
        self.boards: list[dict] = []
        self.events: list[dict] = []

    def new_game(self, board):
        self.boards.append(board)
        engine = self
        objects = {o["id"]: observed(o) for o in board["objects"]}

        class Game:
            def apply(self, event, decider):
                engine.events.append(event)
                raise IllegalAction("stub_refuses")

            def observe(self):
                return {"players": {p["id"]: {"life": p["life"], "lost": False} for p in board["players"]},
                        "objects": objects, "log": [],
                        "zones": {"battlefield": [i for i, o in objects.items() if o["zone"] == "battlefield"]}}

        return Game()


def drive(engine, examples=40):
    check_engine(engine)
    machine = make_machine(engine, [])
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=8, deadline=None, database=None,
        suppress_health_check=list(HealthCheck), derandomize=True))


def test_an_engine_declaring_database_cards_loads_and_its_boards_and_events_hold_them():
    engine = Recording()
    drive(engine)
    on_boards = {o["card"] for b in engine.boards for o in b["objects"]}
    named = {e.get("card") for e in engine.events} - {None}
    assert on_boards | named <= set(DATABASE)
    assert {VANILLA, "Vampire Nighthawk", "Holy Strength", "Bonesplitter"} <= on_boards
    assert {"Disfigure", "Doom Blade"} <= named  # cast by their models, no "destroy" claim needed for a spell


def test_each_card_is_in_the_list_its_model_says():
    plan = Plan.of({"destroy"}, set(DATABASE))
    for name, list_name in DATABASE.items():
        assert name in plan.lists[list_name], (name, list_name)
    assert plan.lists["creatures"][0] == VANILLA  # the shrinker's favourite: a vanilla creature first


def test_an_unknown_name_fails_at_load_naming_the_closest(tmp_path, capsys):
    path = tmp_path / "engine.py"
    path.write_text("from harness.protocol import EngineInfo\n"
                    "class E:\n"
                    "    info = EngineInfo('e', '1', frozenset({'destroy'}), cards=frozenset({'Centaur Corser'}))\n"
                    "    def new_game(self, board):\n        raise AssertionError\n"
                    "engine = E()\n")
    assert main(["plan", "--engine", f"{path}:engine"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Centaur Corser" in err[0] and VANILLA in err[0], err


def test_a_custom_card_definition_is_read_and_generated():
    engine = Recording(cards_=frozenset({VANILLA}), definitions=[CUSTOM])
    drive(engine, examples=30)
    assert cards.card("Playtest Pup").subtypes == ("Dog",) and cards.card("Playtest Pup").colors == ("W",)
    assert "vigilance" in cards.card("Playtest Pup").keywords
    assert any(o["card"] == "Playtest Pup" for b in engine.boards for o in b["objects"])


def test_definitions_travel_in_initialize():
    info = EngineInfo("e", "1", frozenset({"counters"}), cards=frozenset({VANILLA}), card_definitions=(CUSTOM,),
                      counter_kinds=frozenset({"+1/+1", "-1/-1"}))
    back = _info_from_json(json.loads(json.dumps(info_to_json(info))))
    assert back.card_definitions == (CUSTOM,) and back.counter_kinds == {"+1/+1", "-1/-1"}
    assert back.cards == {VANILLA}


def test_a_bad_definition_fails_at_load_in_one_line():
    class E:
        info = EngineInfo("e", "1", frozenset(), card_definitions=({"name": "X", "type_line": ""},))

        def new_game(self, board):
            raise AssertionError

    with pytest.raises(EngineLoadError, match="card_definitions: card definition 'X': type_line"):
        check_engine(E())


def test_an_unmodelled_card_is_listed_with_its_sentence_and_never_generated(tmp_path, capsys):
    plan = Plan.of({"destroy"}, set(DATABASE) | {UNMODELLED})
    assert UNMODELLED in plan.unmodelled and UNMODELLED not in plan.cards
    assert any("Target player gains 3 life." in s for s in plan.unmodelled[UNMODELLED])
    engine = Recording()
    drive(engine, examples=60)
    assert engine.boards
    assert all(o["card"] != UNMODELLED for b in engine.boards for o in b["objects"])
    assert all(e.get("card") != UNMODELLED for e in engine.events)
    path = tmp_path / "engine.py"
    path.write_text("from harness.protocol import EngineInfo\n"
                    "class E:\n"
                    f"    info = EngineInfo('e', '1', frozenset({{'destroy'}}), cards=frozenset({{{UNMODELLED!r}, "
                    f"{VANILLA!r}}}))\n"
                    "    def new_game(self, board):\n        raise AssertionError\n"
                    "engine = E()\n")
    assert main(["plan", "--engine", f"{path}:engine"]) == 0
    out = capsys.readouterr().out
    assert f"unmodelled (never generated): {UNMODELLED}: not read: Choose one" in out


def test_counter_kinds_limit_the_counters_generated():
    plan = Plan.of({"counters"}, {VANILLA}, counter_kinds={"+1/+1", "-1/-1"})
    assert plan.counter_kinds == ("+1/+1", "-1/-1")

    @settings(max_examples=150, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(S.boards(plan))
    def kinds(board):
        for o in board["objects"]:
            assert set(o.get("counters") or ()) <= {"+1/+1", "-1/-1"}

    kinds()


def test_none_keeps_the_curated_lists():
    for name, members in S.CARD_LISTS.items():
        assert FULL.lists[name] == members
        assert Plan.of({"destroy", "damage"}).lists[name] == tuple(
            c for c in members if Plan._why_not(c, frozenset({"destroy", "damage"}), None) is None)
    assert not FULL.groups and not FULL.unmodelled and not FULL.models


def test_definitions_reach_a_child_process_engine_and_are_registered(tmp_path):
    from harness.connection.loading import load_engine

    path = tmp_path / "engine.py"
    path.write_text("from harness.protocol import EngineInfo\n"
                    "class E:\n"
                    "    info = EngineInfo('e', '1', frozenset(), cards=frozenset({'Centaur Courser'}),\n"
                    "                      card_definitions=({'name': 'Isolated Imp', 'mana_cost': '{B}',\n"
                    "                          'type_line': 'Creature — Imp', 'power': 1, 'toughness': 1,\n"
                    "                          'oracle_text': 'Flying'},))\n"
                    "    def new_game(self, board):\n        raise AssertionError\n"
                    "engine = E()\n")
    engine = load_engine(f"{path}:engine", isolate=True)
    try:
        assert engine.info.card_definitions[0]["name"] == "Isolated Imp"
        assert cards.card("Isolated Imp").keywords == {"flying"}
        assert "Isolated Imp" in Plan.for_info(engine.info).lists["creatures"]
    finally:
        engine.close()
