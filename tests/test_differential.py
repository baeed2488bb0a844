"""Differential mode across engines: what is compared, the first observation, the finding's path.

The engine under test is the tiny engine (examples/engines/tiny, written from scratch),
so these tests show differential mode on an engine that is not a fork of the reference.
Expected values come from the rules: after 1 deathtouch damage a Grizzly Bears is in its
owner's graveyard (CR 702.2b, 704.5h), a creature in a graveyard has no damage (400.7),
Shock at P2 costs P2 2 life (120.3a).
"""

from __future__ import annotations

import copy
import json

import pytest

from harness.adapters.reference import ReferenceAdapter
from harness.running.execution import Declined, Session
from harness.connection.loading import EngineLoadError, check_engine
from harness.running.oracle import Oracle
from harness.protocol import EngineInfo, Unsupported
from harness.running.scenario import replay
from invariants import REGISTRY, select
from invariants.differential import (
    Scope, beyond_declaration, capabilities_used, check_ignored_path, differences, first_path, observation_diff,
)

from .scenario_helpers import Decider, board, obj
from .test_tiny_engine import cast, damage, tiny

DIFFERENTIAL = REGISTRY["differential.matches_reference"]


def tiny_with(bug: str):
    return tiny.TinyEngine(bugs={bug})


def step_invariants(engine):
    return select(set(engine.info.capabilities) | {"differential"})


def session(engine, the_board):
    return Session(engine, the_board, step_invariants(engine), against=ReferenceAdapter())


# ---------------------------------------------------------------- what is compared
def observed(**fields):
    base = {"name": "Grizzly Bears", "zone": "battlefield", "damage": 0, "tapped": False}
    return {"players": {"P1": {"life": 20, "lost": False}}, "objects": {"b": {**base, **fields}},
            "zones": {"battlefield": ["b"]}, "log": []}


def test_paths_wildcard_ids_and_rank_zone_before_damage():
    fork = observed(zone="battlefield", damage=1)
    ref = observed(zone="graveyard", damage=0)
    found = differences(fork, ref, Scope(frozenset({"damage"})))
    assert [d.path for d in found][:2] == ["objects.*.zone", "objects.*.damage"]
    messages = observation_diff(fork, ref, scope=Scope(frozenset({"damage"})))
    assert first_path(messages) == "objects.*.zone"
    assert "engine 'battlefield' vs reference 'graveyard'" in messages[0]


def test_players_and_zones_have_paths_too():
    fork, ref = observed(), observed()
    fork["players"]["P1"]["life"] = 18
    ref["zones"] = {"battlefield": [], "graveyard": {"P1": ["b"]}}
    assert [d.path for d in differences(fork, ref)] == ["players.*.life", "zones.battlefield", "zones.graveyard.*"]
    assert first_path(["not a differential message"]) is None and first_path([]) is None


def test_optional_fields_are_compared_only_when_claimed_or_observed():
    fork, ref = observed(), observed(copiable={"name": "Grizzly Bears"}, pt_effects=[], mana_value=2)
    assert differences(fork, ref, Scope(frozenset({"damage"}))) == []
    assert [d.path for d in differences(fork, ref, Scope(frozenset({"observe.copiable"})))] == ["objects.*.copiable"]
    fork["objects"]["b"]["mana_value"] = 3  # observed, so compared (CR 202.3: {1}{G} is 2)
    assert [d.path for d in differences(fork, ref, Scope())] == ["objects.*.mana_value"]


@pytest.mark.parametrize("claimed, compared", [
    ({"damage", "destroy"}, False), ({"tap_untap_costs"}, True), ({"mana"}, True), ({"control_change"}, True)])
def test_summoning_sickness_is_compared_only_for_engines_whose_rules_use_it(claimed, compared):
    """A Grizzly Bears that just entered the battlefield is summoning sick (CR 302.6); an engine
    that claims none of the capabilities whose rules use summoning sickness ({T} costs,
    creatures tapped for mana, gaining control) is not judged on it."""
    fork, ref = observed(summoning_sick=False), observed(summoning_sick=True)
    found = [d.path for d in differences(fork, ref, Scope(frozenset(claimed)))]
    assert found == (["objects.*.summoning_sick"] if compared else [])


def test_log_entries_of_unclaimed_capabilities_are_not_compared():
    fork, ref = observed(), observed()
    ref["log"] = [{"kind": "replacement", "effect": "umbra armor", "source": "a", "affected": "b"},
                  {"kind": "zone_change", "object": "b", "from": "battlefield", "to": "graveyard",
                   "cause": {"event": "destroy", "by": "Murder"}}]
    fork["log"] = [{"kind": "zone_change", "object": "b", "from": "battlefield", "to": "graveyard",
                    "cause": {"event": "destroy", "by": "Doom Blade"}}]
    assert differences(fork, ref, Scope(frozenset({"destroy"}))) == []  # no replacement log, no causes claimed
    paths = [d.path for d in differences(fork, ref, Scope(frozenset({"log.zone_change_causes"})))]
    assert paths == ["log.zone_change"]
    paths = [d.path for d in differences(fork, ref, Scope(frozenset({"log.replacement_effects"})))]
    assert paths == ["log.replacement"]


@pytest.mark.parametrize("pattern", ["objects.*.mana_value", "objects.b.mana_value", "mana_value", "objects.*",
                                     "objects"])
def test_ignored_paths_per_field_and_per_object(pattern):
    fork, ref = observed(mana_value=3), observed(mana_value=2)
    assert differences(fork, ref, Scope(ignored=(pattern,))) == []
    assert differences(fork, ref, Scope(ignored=("objects.c.mana_value",)))  # another object: still compared


def test_ignored_players_and_log_paths():
    fork, ref = observed(), observed()
    fork["players"]["P1"]["life"] = 18
    fork["log"] = [{"kind": "damage", "source": "Shock", "target": "P1", "amount": 2, "deathtouch": False}]
    scope = Scope(frozenset({"damage"}), ("players.*.life",))
    assert [d.path for d in differences(fork, ref, scope)] == ["log.damage"]
    assert differences(fork, ref, Scope(frozenset({"damage"}), ("players.*.life", "log.damage"))) == []


@pytest.mark.parametrize("bad", ["", "objects..tapped", "foo.*.bar", "objects.*.tappd", 7])
def test_malformed_ignored_paths_fail_at_load(bad):
    with pytest.raises(ValueError):
        check_ignored_path(bad)

    class Engine:
        info = EngineInfo("e", "1", frozenset(), ignored_fields=frozenset({bad}))

        def new_game(self, board):
            raise AssertionError("not called")

    with pytest.raises(EngineLoadError, match="ignored_fields"):
        check_engine(Engine())


# ---------------------------------------------------------------- the reference plays only what is declared
def test_capabilities_used_by_log_entries():
    """704.5h is sba.deathtouch_damage, umbra armor umbra_armor, a trigger triggers (the capability table)."""
    assert capabilities_used({"kind": "zone_change", "cause": {"event": "destroy", "by": "704.5h"}}) \
        == {"sba.deathtouch_damage"}
    assert capabilities_used({"kind": "zone_change", "cause": {"event": "state_based_action", "rule": "704.5j"}}) \
        == {"legend_rule"}
    assert capabilities_used({"kind": "replacement", "effect": "umbra armor"}) == {"umbra_armor"}
    assert capabilities_used({"kind": "damage", "deathtouch": True}) == {"damage", "deathtouch"}
    assert beyond_declaration([{"kind": "trigger"}, {"kind": "damage", "deathtouch": False}], {"damage"}) \
        == ["triggers"]


def test_reference_declines_cards_the_engine_does_not_declare():
    with pytest.raises(Unsupported) as caught:
        Oracle(ReferenceAdapter(), tiny.engine.info, board(obj("boa", "River Boa")))
    assert caught.value.reason == "card:River Boa"


def test_reference_declines_a_step_beyond_the_declaration():
    """A fork playing every card (``cards=None``) without claiming umbra_armor: the reference's
    umbra armor on a board that has an umbra Aura anyway is no verdict."""
    info = EngineInfo("fork", "1", frozenset({"destroy"}))
    the_board = board(obj("b", "Grizzly Bears"), obj("h", "Hyena Umbra", attached_to="b"))
    oracle = Oracle(ReferenceAdapter(), info, the_board)
    with pytest.raises(Unsupported) as caught:
        oracle.step({"type": "destroy", "targets": ["b"]}, [], Decider())
    assert caught.value.reason == "capability:umbra_armor"


def test_a_declared_umbra_aura_makes_umbra_armor_a_verdict_without_a_claim():
    """Rules follow from the cards: a fork declaring Hyena Umbra is held to umbra armor (CR
    702.89a) whether or not it claims umbra_armor: the reference's step is a verdict."""
    info = EngineInfo("fork", "1", frozenset({"destroy"}), cards=frozenset({"Grizzly Bears", "Hyena Umbra"}))
    the_board = board(obj("b", "Grizzly Bears"), obj("h", "Hyena Umbra", attached_to="b"))
    oracle = Oracle(ReferenceAdapter(), info, the_board)
    after = oracle.step({"type": "destroy", "targets": ["b"]}, [], Decider())["after"]
    assert after["objects"]["b"]["zone"] == "battlefield" and after["objects"]["h"]["zone"] == "graveyard"


def test_a_session_declines_at_the_reference_without_blame():
    s = session(tiny.engine, board(obj("b", "Grizzly Bears"), obj("r", "Typhoid Rats")))
    s.oracle.scope = Scope(frozenset(s.oracle.scope.capabilities - {"sba.deathtouch_damage"}))
    with pytest.raises(Declined) as caught:
        s.step(damage("r", "b", 1), _Asked())
    assert (caught.value.engine, caught.value.reason, caught.value.step) == ("reference", "capability:sba.deathtouch_damage", 1)


class _Asked(Decider):
    def __init__(self):
        super().__init__()
        self.asked = []


# ---------------------------------------------------------------- the first observation
class MisreadsTapped:
    """The tiny engine, but its first observation shows every permanent untapped."""

    def __init__(self):
        self.info = tiny.engine.info

    def new_game(self, the_board):
        game = tiny.engine.new_game(the_board)
        first = game.observe()
        for o in first["objects"].values():
            o["tapped"] = False
        observe = game.observe
        calls = []

        def observed_once():
            calls.append(1)
            return first if len(calls) == 1 else observe()

        game.observe = observed_once
        return game


def test_a_board_read_wrongly_is_a_finding_at_step_0():
    s = session(MisreadsTapped(), board(obj("b", "Grizzly Bears", tapped=True)))
    assert [(v.invariant, v.step) for v in s.initial_violations] == [("differential.matches_reference", 0)]
    assert first_path(s.initial_violations[0].messages) == "objects.*.tapped"
    assert session(tiny.engine, board(obj("b", "Grizzly Bears", tapped=True))).initial_violations == []


def test_replay_reports_the_step_0_difference():
    scenario = {"format": "rulesfuzz-scenario/1", "board": board(obj("b", "Grizzly Bears", tapped=True)),
                "steps": [{"event": cast("Shock", "P2"), "decisions": []}]}
    result = replay(MisreadsTapped(), scenario, step_invariants(tiny.engine), against=ReferenceAdapter())
    assert [(v.invariant, v.step) for v in result.violations] == [("differential.matches_reference", 0)]


# ---------------------------------------------------------------- the tiny engine against the reference
@pytest.mark.parametrize("bug, event, path, says", [
    ("deathtouch_ignored", damage("r", "b", 1), "objects.*.zone", "engine 'battlefield' vs reference 'graveyard'"),
    ("damage_kept_off_battlefield", cast("Murder", "b"), "objects.*.damage", "engine 1 vs reference 0"),
    ("damage_to_wrong_player", cast("Shock", "P2"), "players.*.life", "P1 life: engine 18 vs reference 20"),
])
def test_each_planted_bug_differs_from_the_reference_at_its_own_path(bug, event, path, says):
    marked = 1 if bug == "damage_kept_off_battlefield" else 0
    the_board = board(obj("b", "Grizzly Bears", damage=marked), obj("r", "Typhoid Rats", owner="P2"))
    events = [event]
    scenario = {"format": "rulesfuzz-scenario/1", "board": the_board,
                "steps": [{"event": e, "decisions": []} for e in events]}
    bad = replay(tiny_with(bug), copy.deepcopy(scenario), [DIFFERENTIAL], against=ReferenceAdapter())
    assert [first_path(v.messages) for v in bad.violations] == [path]
    assert says in bad.violations[0].messages[0]
    good = replay(tiny.engine, scenario, [DIFFERENTIAL], against=ReferenceAdapter())
    assert good.violations == []


def test_the_correct_tiny_engine_matches_the_reference_step_by_step():
    """Every event kind the tiny engine plays, on a board with owner != controller and damage marked."""
    the_board = board(obj("b", "Grizzly Bears", owner="P2", controller="P1", damage=1, tapped=True),
                      obj("r", "Typhoid Rats"), obj("m", "Darksteel Myr"), obj("b2", "Grizzly Bears"))
    events = [damage("r", "m", 1), cast("Murder", "m"), cast("Shock", "P2"), damage("b2", "b", 1),
              {"type": "sacrifice", "object": "r"}, {"type": "destroy", "targets": ["b2", "m"]}, cast("Murder", "b")]
    s = session(tiny.engine, the_board)
    assert s.initial_violations == []
    for event in events:
        assert s.step(event, _Asked()) == [], event
    assert json.dumps(s.observation["players"], sort_keys=True) == \
        '{"P1": {"life": 20, "lost": false}, "P2": {"life": 18, "lost": false}}'


def test_mana_pools_are_compared_only_for_engines_that_claim_mana():
    fork, ref = observed(), observed()
    ref["players"]["P1"]["mana_pool"] = {"G": 1}
    assert differences(fork, ref, Scope(frozenset({"damage"}))) == []
    assert [d.path for d in differences(fork, ref, Scope(frozenset({"mana"})))] == ["players.*.mana_pool"]



COLOUR_BLIND = """
import sys

sys.path.insert(0, {root!r})
from examples.engines.tiny.engine import TinyEngine


class ColourBlind(TinyEngine):
    # The tiny engine observing every object colourless: wrong (Grizzly Bears is green,
    # CR 105.2), and no invariant but the differential one looks at colours.

    def new_game(self, board):
        game = super().new_game(board)
        observe = game.observe

        def colourless():
            observation = observe()
            for o in observation["objects"].values():
                o["colors"] = []
            return observation

        game.observe = colourless
        return game


engine = ColourBlind()
"""


def test_a_differential_finding_replayed_without_against_is_bad_input_not_a_pass(tmp_path, capsys):
    """The replay file of a difference from the reference that breaks no other invariant: replayed
    without --against nothing compared two engines and it passed (exit 0), so a regression corpus
    replayed as CI does lost it. It now says to give --against (exit 2); with it, it fails (exit 1)."""
    from harness.interfaces.cli import main

    from .conftest import ROOT, one_error_line

    path = tmp_path / "colour_blind.py"
    path.write_text(COLOUR_BLIND.format(root=str(ROOT)))
    spec, replays = f"{path}:engine", tmp_path / "replays"
    assert main(["run", "--engine", spec, "--against", "reference", "--max-examples", "30", "--database", "none",
                 "--quiet", "--replay-dir", str(replays)]) == 1
    capsys.readouterr()
    (replay_file,) = replays.glob("*.json")
    assert main(["replay", str(replay_file), "--engine", spec]) == 2
    line = one_error_line(capsys)
    assert "--against" in line and "differential.matches_reference[objects.*.colors]" in line
    assert main(["replay", str(replays), "--engine", spec]) == 2  # in a corpus too: never counted as a pass
    assert main(["replay", str(replay_file), "--engine", spec, "--against", "reference"]) == 1
