"""The published table of decisions (harness.decisions): one table for the harness, the
reference engine, the invariants and docs/protocol.md; questions of unknown kinds; invariants
that read log causes when the engine logs none.

Expected values come from the rules: CR 704.5j (the legend rule's controller chooses), 616.1
(the affected object's controller chooses among replacement effects), 702.89a (umbra armor),
704.5f (toughness 0), 704.5q (+1/+1 and -1/-1 counters annihilate).
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import harness.protocol as protocol
from harness import decisions as D
from harness.running.decider import DrawingDecider, ReplayDecider
from invariants import REGISTRY, Decision, Transition

from .test_invariants import (GRAVEYARD, MURDER, boa_saved_by_umbra, creature, destroyed, observation,
                              second_isamaru, step, two_umbras_chosen_by, umbra, umbra_replaces, zone_change)

ROOT = Path(__file__).resolve().parent.parent


def _asked_kinds(folder: str) -> dict[str, set]:
    """Kind arguments of every ``choose(player, kind, options)`` / ``_choose(...)`` call in ``folder``:
    string constants, and ``D.NAME`` resolved through the table module."""
    found: dict[str, set] = {}
    for path in sorted((ROOT / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name not in ("choose", "_choose"):
                continue
            kind = node.args[1]
            if isinstance(kind, ast.Constant) and isinstance(kind.value, str):
                found.setdefault(kind.value, set()).add(path.name)
            elif isinstance(kind, ast.Attribute) and isinstance(kind.value, ast.Name) and kind.value.id == "D":
                found.setdefault(getattr(D, kind.attr), set()).add(path.name)
    return found


def _read_kinds(folder: str) -> dict[str, set]:
    """Kinds the invariants compare a decision's ``kind`` with (``d.kind == X``)."""
    found: dict[str, set] = {}
    for path in sorted((ROOT / folder).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare) or not isinstance(node.left, ast.Attribute) \
                    or node.left.attr != "kind" or getattr(node.left.value, "id", None) != "d":
                continue
            for right in node.comparators:
                if isinstance(right, ast.Constant) and isinstance(right.value, str):
                    found.setdefault(right.value, set()).add(path.name)
                elif isinstance(right, ast.Attribute) and getattr(right.value, "id", None) == "D":
                    found.setdefault(getattr(D, right.attr), set()).add(path.name)
    return found


def test_every_kind_the_reference_engine_asks_is_in_the_table():
    asked = _asked_kinds("reference_engine")
    assert {"legend_rule", "replacement_effect", "trigger_order", "target", "search", "mana_type",
            "mana_payment", "may", "tap_or_untap", "coin_call", "coin_kept", "sacrifice"} <= set(asked)
    assert all(D.is_known(k) for k in asked), {k: v for k, v in asked.items() if not D.is_known(k)}


def test_the_reference_engine_spells_kinds_through_the_table():
    """No kind is a string literal at a call site: all come from harness.decisions (mana.py's
    ``_choose`` helper passes its ``kind`` argument through)."""
    literal = [k for k, files in _asked_kinds("reference_engine").items()
               if k not in {getattr(D, n) for n in dir(D) if n.isupper() and isinstance(getattr(D, n), str)}]
    assert literal == []
    for path in sorted((ROOT / "reference_engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("choose", "_choose") \
                    and len(node.args) >= 2:
                assert not isinstance(node.args[1], ast.Constant), f"{path.name}: literal kind {node.args[1].value!r}"


def test_every_kind_an_invariant_reads_is_in_the_table():
    read = _read_kinds("invariants")
    assert {"legend_rule", "replacement_effect", "trigger_order", "search", "mana_type", "may", "coin_call",
            "coin_kept", "coin_flip"} <= set(read)
    assert all(D.is_known(k) for k in read), {k: v for k, v in read.items() if not D.is_known(k)}


def test_the_table_kinds_and_labels_are_todays():
    """Scenario files record these strings: they must not change (rulesfuzz-scenario/2 replays)."""
    assert [k.kind for k in D.TABLE] == ["legend_rule", "replacement_effect", "trigger_order", "target", "search",
                                         "mana_type", "mana_payment", "may", "tap_or_untap", "coin_call",
                                         "coin_kept", "sacrifice", "edict", "damage_assignment", "coin_flip", "d<N>"]
    assert (D.YES, D.NO, D.NOTHING, D.NONE, D.TAP, D.UNTAP, D.NEITHER, D.HEADS, D.TAILS, D.REGENERATION) == (
        "yes", "no", "nothing", "none", "tap", "untap", "neither", "heads", "tails", "regeneration")
    assert D.umbra_armor_option("u1") == "umbra armor:u1"
    assert D.trigger_option("enters", "o3") == "enters:o3" and D.source_of("Pokey: roll a d20 instead:p1") == "p1"
    assert D.die_kind(20) == "d20" and D.is_known("d20") and D.is_known("d6")
    assert not D.is_known("d0") and not D.is_known("vote") and not D.is_known(None)
    for k in D.TABLE:
        assert k.rules and all(r[0].isdigit() for r in k.rules) and k.asked and k.options


def test_docs_protocol_lists_the_table():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert D.BEGIN in text and D.END in text
    shown = text.split(D.BEGIN, 1)[1].split(D.END, 1)[0]
    assert shown.strip() == D.markdown().strip(), "docs/protocol.md's table is stale: paste harness.decisions.markdown()"


def test_the_decider_protocol_docs_list_the_table():
    for k in D.TABLE:
        assert f"``{k.kind}``" in protocol.Decider.__doc__


# ------------------------------------------------------------------ questions of unknown kinds
@settings(max_examples=5, database=None, derandomize=True)
@given(st.data())
def test_an_unknown_kind_is_answered_and_recorded(data):
    decider = DrawingDecider(data)
    answer = decider.choose("P2", "vote", ["grace", "condemnation"])
    assert answer in ("grace", "condemnation")
    assert decider.asked == [Decision("P2", "vote", ("grace", "condemnation"), answer)]


def test_an_unknown_kind_replays():
    decider = ReplayDecider([{"player": "P2", "kind": "vote", "options": ["grace", "condemnation"],
                              "answer": "condemnation"}])
    assert decider.choose("P2", "vote", ["grace", "condemnation"]) == "condemnation"
    assert decider.asked[0].kind == "vote"


UNKNOWN = Decision("P1", "which_legend", ("i", "j"), "j")


def _with(t: Transition, decisions) -> Transition:
    return Transition(t.before, t.event, t.after, decisions=list(decisions))


def test_legend_rule_asked_under_an_unknown_kind_is_not_applicable():
    check = REGISTRY["legend_rule.controller_chooses"].check
    t = second_isamaru()
    assert check(t) == []
    assert "was not asked" in " ".join(check(_with(t, [])))  # nobody asked anything: a failure
    assert check(_with(t, [UNKNOWN])) is None  # asked something the table doesn't know: not applicable


def test_umbra_choices_asked_under_an_unknown_kind_are_not_applicable():
    chooses = REGISTRY["umbra_armor.controller_chooses_the_aura"].check
    t = two_umbras_chosen_by("P1")
    assert chooses(t) == []
    assert "nobody was asked" in " ".join(chooses(_with(t, [])))
    assert chooses(_with(t, [Decision("P1", "umbra_choice", ("h", "s"), "h")])) == []
    either = REGISTRY["umbra_armor.or_regeneration_the_other_remains"].check
    t = boa_saved_by_umbra()
    assert either(t) == []
    assert "was not asked" in " ".join(either(_with(t, [])))
    assert either(_with(t, [Decision("P1", "shield_or_umbra", ("h", "shield"), "h")])) == []


# ------------------------------------------------------------------ log causes an engine need not log
def _no_causes(obs: dict) -> dict:
    for e in obs["log"]:
        e.pop("cause", None)
    return obs


def test_legend_rule_without_causes_judges_the_board():
    """An engine that doesn't claim log.zone_change_causes logs no cause: the legend not chosen is in
    the graveyard, which is all 704.5j asks of the board."""
    check = REGISTRY["legend_rule.controller_chooses"].check
    t = second_isamaru()
    assert check(_with(Transition(t.before, t.event, _no_causes(t.after)), t.decisions)) == []
    t.after["log"][1]["cause"] = {"event": "destroy", "by": "704.5j"}  # a cause logged, and wrong
    assert "state-based action 704.5j" in " ".join(check(t))


def _bears_saved_then_zero_toughness(causes: bool) -> Transition:
    """Grizzly Bears (2/2) with two -1/-1 counters and Hyena Umbra (+1/+1): a 1/1. Murder: umbra armor
    destroys the Aura instead (702.89a); the Bears are then 0/0 and die by 704.5f, the Aura's
    destruction and the 704.5f both visible on the board; the log has causes or not."""
    before = observation({"b": creature(power=1, toughness=1, keywords=["first strike"], colors=["G"],
                                        counters={"-1/-1": 2}),
                          "h": umbra("b")})
    log = [umbra_replaces("h", "b"), destroyed("h", "Murder"),
           zone_change("b", event="state_based_action", rule="704.5f")]
    after = step(before, {"b": {**GRAVEYARD, "counters": {}, "power": 2, "toughness": 2, "keywords": []},
                          "h": GRAVEYARD}, log)
    return Transition(before, MURDER, after if causes else _no_causes(after))


def test_umbra_armor_without_causes_judges_the_board():
    for name in ("umbra_armor.mandatory", "umbra_armor.exactly_one_aura"):
        check = REGISTRY[name].check
        assert check(_bears_saved_then_zero_toughness(causes=True)) == [], name
        assert check(_bears_saved_then_zero_toughness(causes=False)) == [], name
    # the same board with the creature's cause logged as Murder's destruction: umbra armor didn't save it
    t = _bears_saved_then_zero_toughness(causes=True)
    t.after["log"][2]["cause"] = {"event": "destroy", "by": "Murder"}
    assert REGISTRY["umbra_armor.mandatory"].check(t)


def test_umbra_armor_without_causes_still_fails_when_the_board_shows_it():
    """No cause logged, the creature in the graveyard and its Aura still on the battlefield: umbra
    armor didn't apply (702.89a), whatever the log says."""
    t = _bears_saved_then_zero_toughness(causes=False)
    t.after["objects"]["h"].update(zone="battlefield", attached_to=None)
    t.after["log"] = [e for e in t.after["log"] if e.get("object") != "h"]
    assert REGISTRY["umbra_armor.mandatory"].check(t)


def test_counter_annihilation_without_its_log_entry():
    """704.5q: +1/+1 and -1/-1 counters on one permanent annihilate. An engine that logs no
    counters_removed entry shows it on the board: what the counter invariants expect is derived."""
    from invariants.layers_and_copies import counters_annihilated, expected_counters

    before = observation({"b": creature(counters={"-1/-1": 1}, power=1, toughness=1)})
    added = {"kind": "counters_added", "object": "b", "counter": "+1/+1", "amount": 2}
    after = step(before, {"b": {"counters": {"+1/+1": 1}, "power": 3, "toughness": 3}}, [added])
    t = Transition(before, {"type": "put_counters", "object": "b", "counter": "+1/+1", "amount": 2}, after)
    assert counters_annihilated(t, "b") == 1
    assert expected_counters(before["objects"]["b"]["counters"], t, "b") == {"+1/+1": 1}
    logged = step(before, {"b": {"counters": {"+1/+1": 1}, "power": 3, "toughness": 3}},
                  [added, {"kind": "counters_removed", "object": "b", "counter": "+1/+1", "amount": 1, "rule": "704.5q"}])
    assert counters_annihilated(Transition(before, t.event, logged), "b") == 1
    kept = step(before, {"b": {"counters": {"+1/+1": 2, "-1/-1": 1}, "power": 3, "toughness": 3}}, [added])
    assert counters_annihilated(Transition(before, t.event, kept), "b") == 0
