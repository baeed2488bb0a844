"""The phase adapter (examples/engines/phase): phase-python 0.103.0 fuzzed with its baseline,
its regression corpus, and a few direct scenarios. Skipped where phase-python isn't installed
(Windows has no wheel).

Expected values come from the Oracle texts and the Comprehensive Rules: Lightning Bolt deals
3 damage (CR 120.3e: marked on a creature, 120.3a: lost by a player), Grizzly Bears dies of
it (704.5g), two Jasmine Boreals under one player ask their controller which stays (704.5j).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("phase")

from harness.interfaces.cli import main  # noqa: E402
from harness.connection.loading import load_engine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "examples" / "engines" / "phase"
SPEC = f"{FOLDER / 'engine.py'}:engine"


@pytest.fixture(scope="module")
def engine():
    return load_engine(SPEC)



class Decider:
    """Answers with the first option (or a given one per kind) and records every question."""

    def __init__(self, answers=None):
        self.answers = answers or {}
        self.asked = []

    def choose(self, player, kind, options):
        self.asked.append((player, kind, list(options)))
        return self.answers.get(kind, options[0])

    def flip_coin(self, player):
        return "heads"

    def roll_die(self, player, sides):
        return 1


def board(*objects, life=20):
    return {"players": [{"id": "P1", "life": life}, {"id": "P2", "life": life}],
            "objects": [{"owner": "P1", "controller": "P1", **o} for o in objects]}


def test_declared_cards_are_modelled_and_read_by_phase(engine):
    import sys

    import phase

    import cards
    from cards import reader

    adapter = sys.modules[type(engine).__module__]  # loaded by path, as rulesfuzz loads it
    assert engine.info.cards and all(reader.model(name).modelled for name in engine.info.cards)
    faces = engine.engine.card_count()
    assert faces == len(engine.info.cards)
    for name in engine.info.cards:  # phase reads every line: no Unimplemented part
        face = phase.build_oracle_face(adapter.mtgjson(cards.database().record(name)), None)
        assert "Unimplemented" not in json.dumps(face), name
    aura = phase.build_oracle_face(adapter.mtgjson(cards.database().record("Spider Umbra")), None)
    assert "TotemArmor" in aura["keywords"] and any("Enchant" in k for k in aura["keywords"] if isinstance(k, dict))


def test_a_board_round_trips_into_an_observation(engine):
    game = engine.new_game(board(
        {"id": "bear", "card": "Grizzly Bears", "damage": 1, "counters": {"+1/+1": 2}},
        {"id": "aura", "card": "Holy Strength", "attached_to": "bear"},
        {"id": "rats", "card": "Typhoid Rats", "owner": "P2", "controller": "P2", "regeneration_shields": 0},
        {"id": "gone", "card": "Darksteel Gargoyle", "zone": "graveyard"},
    ))
    obs = game.observe()
    bear = obs["objects"]["bear"]
    # 2/2 + two +1/+1 counters + Holy Strength's +1/+2 (CR 613.4c)
    assert (bear["power"], bear["toughness"], bear["damage"], bear["counters"]) == (5, 6, 1, {"+1/+1": 2})
    assert obs["objects"]["aura"]["attached_to"] == "bear"
    assert obs["objects"]["rats"]["keywords"] == ["deathtouch"] and obs["objects"]["rats"]["controller"] == "P2"
    assert obs["objects"]["gone"]["zone"] == "graveyard" and obs["zones"]["graveyard"]["P1"] == ["gone"]
    assert obs["zones"]["battlefield"] == ["bear", "aura", "rats"]
    assert obs["players"] == {"P1": {"life": 20, "lost": False}, "P2": {"life": 20, "lost": False}}


def test_lightning_bolt_is_cast_and_resolves(engine):
    game = engine.new_game(board({"id": "bear", "card": "Grizzly Bears"}))
    game.apply({"type": "cast", "card": "Lightning Bolt", "controller": "P2", "targets": ["P1"]}, Decider())
    assert game.observe()["players"]["P1"]["life"] == 17  # CR 120.3a
    game.apply({"type": "cast", "card": "Lightning Bolt", "controller": "P1", "targets": ["bear"]}, Decider())
    obs = game.observe()
    assert obs["objects"]["bear"]["zone"] == "graveyard"  # 3 damage on a 2/2: 704.5g
    assert {"kind": "zone_change", "object": "bear", "from": "battlefield", "to": "graveyard"} in obs["log"]


def test_a_spell_with_an_illegal_target_is_refused_and_changes_nothing(engine):
    from harness.protocol import IllegalAction

    game = engine.new_game(board({"id": "bear", "card": "Grizzly Bears"},
                                 {"id": "anthem", "card": "Glorious Anthem"}))
    before = game.observe()
    with pytest.raises(IllegalAction):  # Murder: "Destroy target creature."
        game.apply({"type": "cast", "card": "Murder", "controller": "P1", "targets": ["anthem"]}, Decider())
    assert game.observe() == before


def test_the_legend_rule_asks_the_decider(engine):
    game = engine.new_game(board({"id": "j1", "card": "Jasmine Boreal"}))
    decider = Decider({"legend_rule": "j2"})
    game.apply({"type": "put_onto_battlefield", "id": "j2", "card": "Jasmine Boreal", "controller": "P1",
                "attach_to": None}, decider)
    assert decider.asked == [("P1", "legend_rule", ["j1", "j2"])]  # CR 704.5j
    obs = game.observe()
    assert obs["objects"]["j1"]["zone"] == "graveyard" and obs["objects"]["j2"]["zone"] == "battlefield"


def test_effect_events_without_a_card_are_declined(engine):
    from harness.protocol import Unsupported

    game = engine.new_game(board({"id": "bear", "card": "Grizzly Bears"}))
    for event in ({"type": "destroy", "targets": ["bear"], "cant_be_regenerated": False},
                  {"type": "damage", "source": "bear", "target": "P2", "amount": 1}):
        with pytest.raises(Unsupported):
            game.apply(event, Decider())


def test_a_short_fuzz_with_the_baseline_passes(tmp_path, outside_coverage):
    # --no-shrink: the baseline matches findings by key, which shrinking keeps (Hypothesis shrinks
    # each key's failures on their own); shrinking the known findings was 16 s of the suite.
    assert main(["run", "--engine", SPEC, "--max-examples", "30", "--seed", "3", "--keep-going",
                 "--baseline", str(FOLDER / "baseline.json"), "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path), "--no-shrink"]) == 0


@pytest.mark.parametrize("path", sorted((FOLDER / "corpus").glob("*.json")), ids=lambda p: p.stem)
def test_the_corpus_still_fails_on_phase_and_passes_on_the_reference_engine(path, capsys):
    scenario = json.loads(path.read_text())
    differential = "differential." in json.dumps([scenario.get("violation"), scenario.get("also_violated")])
    against = ["--against", "reference"] if differential else []
    assert main(["replay", str(path), "--engine", SPEC, *against]) == 1
    assert main(["replay", str(path), "--engine", "reference", *against]) == 0
