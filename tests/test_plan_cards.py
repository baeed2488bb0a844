"""`rulesfuzz plan` and the rule coverage list every card generation can put on a board or cast
for an engine (issue "An adapter in an afternoon"): also the cards the rules areas name
themselves (the mana corner's Forests and Llanowar Elves, the chance, playtest and search
corners), not only those of the generator lists. Checked against what a run really plays:
every card on a board or named by an event is in ``Plan.cards``."""

from __future__ import annotations

import json

from harness.interfaces.cli import main
from harness.connection.loading import load_engine
from harness.generation.plan import Plan
from harness.protocol import EngineInfo
from harness.running.runner import run

#: Named by the rules areas of harness.rules (mana, chance, playtest, search), in no generator list.
MANA = {"Forest", "Island", "Plains", "Swamp", "Mountain", "Llanowar Elves", "Birds of Paradise", "Fellwar Stone",
        "Mana Reflection", "Heartbeat of Spring"}


class _Recording:
    """An engine that records the cards of every board it is given and every card an event names."""

    def __init__(self, inner):
        self.inner, self.info, self.seen = inner, inner.info, set()

    def new_game(self, board):
        self.seen.update(o["card"] for o in board["objects"])
        return _RecordingGame(self.inner.new_game(board), self.seen)


class _RecordingGame:
    def __init__(self, game, seen):
        self.game, self.seen = game, seen

    def apply(self, event, decider):
        if isinstance(event.get("card"), str):
            self.seen.add(event["card"])
        return self.game.apply(event, decider)

    def observe(self):
        return self.game.observe()


def test_the_plan_lists_the_cards_the_rules_areas_put_on_boards():
    plan = Plan.for_info(load_engine("reference").info)
    assert MANA <= plan.cards and {"Orb of Origin", "Omnipresent Impostor", "Krark's Thumb"} <= plan.cards
    assert "mana" in plan.area_cards["Llanowar Elves"] and "Forest" not in plan.left_out_cards


def test_an_engine_without_the_capabilities_gets_none_of_them():
    info = EngineInfo(name="small", version="1", capabilities=frozenset({"destroy", "damage"}))
    assert not (MANA | {"Orb of Origin", "Krark's Thumb", "Omnipresent Impostor"}) & Plan.for_info(info).cards


def test_declared_cards_limit_what_the_rules_areas_add():
    info = EngineInfo(name="lands", version="1", capabilities=frozenset({"mana", "destroy"}),
                      cards=frozenset({"Grizzly Bears", "Murder", "Forest"}))
    plan = Plan.for_info(info)
    assert "Forest" in plan.cards and "Llanowar Elves" not in plan.cards and "Island" not in plan.cards


def test_what_a_plan_plays_is_its_own_answer_however_often_and_in_whatever_order_asked():
    """Plan.plays answers once per card (boards ask it as they are drawn): each plan keeps its own
    answers, the same as read from the plan and the card data, for every card."""
    every = Plan.for_info(load_engine("reference").info)
    small = Plan.for_info(EngineInfo(name="small", version="1", capabilities=frozenset({"destroy", "damage"})))
    declared = Plan.for_info(EngineInfo(name="lands", version="1", capabilities=frozenset({"mana", "destroy"}),
                                        cards=frozenset({"Grizzly Bears", "Murder", "Forest"})))
    names = sorted(every.cards | {"Orb of Origin", "Llanowar Elves", "Forest", "Murder"})
    for _ in range(2):
        for plan in (every, small, declared, every):
            assert [plan.plays(n) for n in names] == [plan._reads_as_played(n) for n in names]
    assert every.plays("Orb of Origin") and not small.plays("Orb of Origin")
    assert declared.plays("Forest") and not declared.plays("Llanowar Elves") and every.plays("Llanowar Elves")


def test_every_card_a_run_plays_is_in_the_plan_and_in_the_coverage(tmp_path):
    engine = _Recording(load_engine("reference"))
    result = run(engine, max_examples=40, seed=3, replay_dir=tmp_path, database=None, steps_per_example=8)
    plan = Plan.for_info(engine.info)
    assert engine.seen and engine.seen & MANA, "the run put no mana card on a board: the test tests nothing"
    assert engine.seen <= plan.cards, f"played but not in the plan: {sorted(engine.seen - plan.cards)}"
    coverage = result.rule_coverage["cards"]
    assert set(coverage["exercised"]) | set(coverage["never"]) == plan.cards


def test_rulesfuzz_plan_lists_them_and_says_which_area(capsys):
    assert main(["plan", "--engine", "reference", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert MANA <= set(report["cards"]) and "Llanowar Elves" in report["cards_of_rules_areas"]
    assert main(["plan", "--engine", "reference"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("cards ("))
    assert "Llanowar Elves" in line and "Forest" in line
    assert any(line.startswith("  put there by the mana corner") and "Llanowar Elves" in line for line in out.splitlines())
