"""Generation stays inside what the engine declares: its cards (EngineInfo.cards) and its
capabilities (the table harness.protocol.CAPABILITIES); bad declarations fail at load;
``rulesfuzz plan`` says what a run uses and leaves out; shrinking goes toward absent
rare features."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.stateful import run_state_machine_as_test

from harness.generation import strategies as S
from harness.interfaces.cli import main
from harness.running.conformance import check
from harness.connection.loading import EngineLoadError, check_engine, load_engine
from harness.running.machine import make_machine
from harness.generation.plan import FULL, Plan
from harness.protocol import EngineInfo, IllegalAction, Unsupported
from harness.running.runner import run

from .conftest import ROOT

TINY_CARDS = frozenset({"Grizzly Bears", "Typhoid Rats", "Darksteel Myr", "Murder", "Shock"})
TINY_CAPS = frozenset({"destroy", "damage", "deathtouch", "indestructible", "sacrifice", "sba.lethal_damage",
                       "sba.deathtouch_damage", "sba.zero_toughness"})
#: What each of those cards is, from their Oracle text (written here for the stub, which
#: reads no card data): types, keywords, printed power and toughness.
STUB_CARDS = {
    "Grizzly Bears": (["Creature"], [], 2, 2),
    "Typhoid Rats": (["Creature"], ["deathtouch"], 1, 1),
    "Darksteel Myr": (["Artifact", "Creature"], ["indestructible"], 0, 1),
    "Murder": (["Instant"], [], None, None),
    "Shock": (["Instant"], [], None, None),
}


class RecordingEngine:
    """An engine written from scratch: it builds boards, refuses every event, and records
    every board and event the harness gives it."""

    def __init__(self, capabilities=TINY_CAPS, cards=TINY_CARDS):
        self.info = EngineInfo("recording-stub", "0", frozenset(capabilities), cards=cards)
        self.boards: list[dict] = []
        self.events: list[dict] = []

    def new_game(self, board):
        self.boards.append(board)
        engine = self

        class StubGame:
            def apply(self, event, decider):
                engine.events.append(event)
                raise IllegalAction("stub_refuses")

            def observe(self):
                objects, battlefield = {}, []
                for o in board["objects"]:
                    types, keywords, power, toughness = STUB_CARDS[o["card"]]
                    zone = o.get("zone", "battlefield")
                    objects[o["id"]] = {
                        "name": o["card"], "zone": zone, "owner": o["owner"], "controller": o["controller"],
                        "token": bool(o.get("token")), "tapped": bool(o.get("tapped")), "summoning_sick": False,
                        "damage": o.get("damage", 0), "counters": dict(o.get("counters", {})),
                        "attached_to": o.get("attached_to"), "combat": o.get("combat"),
                        "regeneration_shields": o.get("regeneration_shields", 0), "supertypes": [],
                        "types": types, "subtypes": [], "colors": [], "keywords": keywords, "power": power,
                        "toughness": toughness}
                    if zone == "battlefield":
                        battlefield.append(o["id"])
                return {"players": {p["id"]: {"life": p["life"], "lost": False} for p in board["players"]},
                        "objects": objects, "zones": {"battlefield": battlefield}, "log": []}

        return StubGame()


def drive(engine, examples=60):
    machine = make_machine(engine, [])
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=12, deadline=None, database=None,
        suppress_health_check=list(HealthCheck), derandomize=True))  # the same boards every run: no flaky misses


def test_a_small_engine_gets_only_its_cards_and_features():
    engine = RecordingEngine()
    drive(engine)
    assert engine.boards and engine.events
    for board in engine.boards:
        for o in board["objects"]:
            assert o["card"] in TINY_CARDS
            assert o.get("zone", "battlefield") == "battlefield"  # library needs `library`
            assert not o.get("token") and not o.get("counters") and not o.get("regeneration_shields")
            assert not o.get("combat") and not o.get("attached_to")
            assert not o.get("tapped") and not o.get("summoning_sick")  # tapped permanents: tap_untap_costs
    kinds = {e["type"] for e in engine.events}
    assert kinds <= {"cast", "damage", "destroy", "sacrifice", "put_onto_battlefield"}, kinds
    assert {"cast", "damage", "destroy", "sacrifice"} <= kinds
    for e in engine.events:
        assert e.get("card", "Grizzly Bears") in TINY_CARDS
        assert "x" not in e and "copy_of" not in e and "token_ids" not in e


def test_capabilities_unlock_board_features():
    engine = RecordingEngine(TINY_CAPS | {"tokens", "counters", "combat_status", "regeneration", "tap_untap_costs"})
    drive(engine)
    objects = [o for b in engine.boards for o in b["objects"]]
    assert any(o.get("tapped") for o in objects)
    assert any(o.get("token") for o in objects)
    assert any(o.get("counters") for o in objects)
    assert any(o.get("combat") for o in objects)
    assert any(o.get("regeneration_shields") for o in objects)


class DeclinesTapped:
    """The tiny engine (written from scratch), made to decline a board with a tapped permanent,
    as an engine that models no tapping (it doesn't claim ``tap_untap_costs``) may."""

    def __init__(self):
        self.inner = load_engine(f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:engine")
        self.info = self.inner.info
        assert "tap_untap_costs" not in self.info.capabilities

    def new_game(self, board):
        if any(o.get("tapped") for o in board["objects"]):
            raise Unsupported("tapped", "this engine models no tapped permanent")
        return self.inner.new_game(board)


def test_an_engine_without_tap_untap_costs_gets_no_tapped_permanent():
    # `rulesfuzz plan` leaves "tapped permanents" out without tap_untap_costs: neither the
    # run's boards nor `rulesfuzz check`'s may have one, or such an engine's run is "mostly
    # declined" (exit 2) and its checks fail for what it never claimed.
    assert "tapped permanents" in Plan.of(TINY_CAPS, TINY_CARDS).left_out_features
    result = run(DeclinesTapped(), max_examples=30, seed=0, database=None)
    assert result.violation is None and result.stats.declines.get("tapped", 0) == 0
    assert not result.stats.mostly_declined()
    failed = [f"{r.name}: {r.why}" for r in check(DeclinesTapped()) if not r.ok]
    assert not failed, failed


def test_the_plan_derives_card_needs_from_card_data():
    # A declared deathtouch card implies deathtouch (harness.generation.plan.implied_capabilities): it is
    # generated without the claim, and its rules are checked.
    plan = Plan.of(TINY_CAPS - {"deathtouch"}, TINY_CARDS)
    assert "Typhoid Rats" in plan.lists["creatures"]  # Oracle: Deathtouch
    assert plan.implied["deathtouch"].startswith("Typhoid Rats")
    # With cards=None (the curated pool), a card still needs what it needs claimed.
    plan = Plan.of(TINY_CAPS - {"deathtouch"})
    assert "Typhoid Rats" not in plan.lists["creatures"]
    assert plan.left_out_cards["Typhoid Rats"] == "needs capability deathtouch"
    full = Plan.of(FULL.capabilities - {"legend_rule"})
    assert "Isamaru, Hound of Konda" not in full.lists["creatures"]  # Legendary (CR 704.5j)


@pytest.mark.parametrize("info, field", [
    (EngineInfo("e", "1", frozenset({"destroy", "umbra"})), "info.capabilities: unknown capability 'umbra'"),
    (EngineInfo("e", "1", frozenset({"destroy"}), cards=frozenset({"Grizly Bears"})),
     "info.cards: unknown card 'Grizly Bears'"),
    (EngineInfo("e", "1", "destroy"), "info.capabilities: expected a set"),
])
def test_unknown_names_in_engine_info_fail_at_load(info, field):
    class Engine:
        def new_game(self, board):
            raise AssertionError("never called")

    engine = Engine()
    engine.info = info
    with pytest.raises(EngineLoadError) as exc:
        check_engine(engine, "e")
    message = str(exc.value)
    assert field in message and "\n" not in message
    if "capabilities: unknown" in field:
        assert "accepted: " in message and "umbra_armor" in message


def test_plan_command_lists_what_a_run_uses_and_leaves_out(capsys):
    assert main(["plan", "--engine", "examples/engines/tiny/engine.py:engine", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["cards"]) <= TINY_CARDS and "Murder" in report["cards"]
    assert report["cards_left_out"]["Hyena Umbra"] == "not in the engine's EngineInfo.cards"
    assert report["board_features_left_out"]["tokens"] == "needs capability tokens"
    assert "put_umbra" in report["events_left_out"] and "destroy" in report["events"]
    assert "umbra_armor.mandatory" in report["invariants_left_out"]
    assert "generic.engine_does_not_raise" in report["invariants"]
    assert main(["plan", "--engine", "examples/engines/tiny/engine.py:engine"]) == 0
    text = capsys.readouterr().out
    assert "left out: tokens: needs capability tokens" in text


def test_plan_command_with_a_bad_engine_exits_2(capsys):
    assert main(["plan", "--engine", "no/such/file.py:engine"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_cards_json_exports_the_card_data(capsys):
    import cards

    assert main(["cards", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(cards.names())
    assert rows["Grizzly Bears"]["toughness"] == 2 and rows["Grizzly Bears"]["reference_plays"]
    assert all(isinstance(r["reference_plays"], bool) and isinstance(r["reference_not_modelled"], list)
               for r in rows.values())
    assert any("Islandwalk" in gap for gap in rows["River Boa"]["reference_not_modelled"])


def test_generator_lists_read_card_facts():
    assert S.toughness("Typhoid Rats") == 1 and S.toughness("Darksteel Myr") == 1  # printed 1/1, 0/1
    assert S.LEGENDS == ("Isamaru, Hound of Konda",)
    assert "Dog Umbra" in S.UMBRA_AURAS and "Penumbra Umbra" not in S.UMBRA_AURAS  # enchant creature you control
    assert set(S.X_CREATURES) == {"Hangarback Walker", "Endless One", "Stonecoil Serpent", "Hydroid Krasis"}
    assert set(S.COPY_CREATURES) == {"Clone", "Mirror Image"}


def test_boards_shrink_toward_no_rare_feature():
    board = find(S.boards(FULL), lambda b: True, settings=settings(database=None, phases=list(Phase), derandomize=True))
    objects = board["objects"]
    assert len(objects) == 1
    assert not objects[0].get("token") and not objects[0].get("counters")
    assert all(o["card"] != "Penumbra Umbra" and o.get("zone") != "library" for o in objects)
    # Even when the condition needs several creatures and an Aura, nothing rare rides along.
    board = find(S.boards(FULL), lambda b: sum("attached_to" in o for o in b["objects"]) >= 1
                 and len(b["objects"]) >= 3, settings=settings(database=None, max_examples=2000, phases=list(Phase), derandomize=True))
    assert not any(o.get("token") or o["card"] == "Penumbra Umbra" or o.get("counters") for o in board["objects"])
