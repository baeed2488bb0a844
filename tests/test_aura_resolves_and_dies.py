"""An Aura spell that resolves from the stack and goes to the graveyard in the same step (a false positive
of ``generic.objects_conserved`` on the clean reference engine with the combat cards, tests/mutants/_combat.py).

Cast into Darkness (Oracle: "Enchant creature / Enchanted creature gets -2/-0 and can't block.") is cast at
P2's Grizzly Bears (2/2) whose power and toughness an effect switched (still 2/2). When both players have
passed (CR 117.4) it resolves: the card that moved to the stack (601.2a) becomes a permanent, keeping its
id, and enters attached to the Bears (608.3, 608.3c), logged as a zone_change from the stack. The Bears are
then 2 - 2 = 0 power (layer 7c) switched (layer 7d, 613.4c-d): 2/0, so they are put into their owner's
graveyard (704.5f), and the Aura, attached to nothing, into its owner's (704.5m; 704.3: checked again).
The Aura was on the stack, not among the objects, before the pass: its first zone change of the step
creates it, its last is a later move. The expected log and zones are the rules', not the engine's.
"""

from __future__ import annotations

from harness.protocol import Transition
from invariants import REGISTRY
from reference_engine import ReferenceEngine
from tests.scenario_helpers import Decider, board, obj


def _steps():
    game = ReferenceEngine().new_game({**board(obj("bears", "Grizzly Bears", "P2")), "stack": True})
    events = [{"type": "switch_pt", "object": "bears"},
              {"type": "cast", "card": "Cast into Darkness", "controller": "P1", "targets": ["bears"], "id": "aura"},
              {"type": "pass_priority", "player": "P1"}, {"type": "pass_priority", "player": "P2"}]
    before, out = game.observe(), []
    for event in events:
        game.apply(event, Decider())
        after = game.observe()
        out.append(Transition(before, event, after))
        before = after
    return out


def test_the_aura_enters_from_the_stack_then_follows_its_creature_to_the_graveyard():
    resolving = _steps()[-1]
    assert "aura" not in resolving.before["objects"] and [e["id"] for e in resolving.before["stack"]] == ["aura"]
    moves = [(e["object"], e["from"], e["to"], e["cause"]) for e in resolving.after["log"] if e["kind"] == "zone_change"]
    assert moves == [
        ("aura", "stack", "battlefield", {"event": "cast", "by": "P1"}),  # 608.3c
        ("bears", "battlefield", "graveyard", {"event": "state_based_action", "rule": "704.5f"}),
        ("aura", "battlefield", "graveyard", {"event": "state_based_action", "rule": "704.5m"}),
    ]
    objects = resolving.after["objects"]
    assert (objects["aura"]["zone"], objects["aura"]["owner"], objects["aura"]["attached_to"]) == ("graveyard", "P1",
                                                                                                   None)
    assert objects["bears"]["zone"] == "graveyard" and resolving.after["stack"] == []


def test_no_step_invariant_objects_to_any_step():
    for t in _steps():
        complaints = {inv.name: found for inv in REGISTRY.values() if inv.scope == "step" and (found := inv.check(t))}
        assert complaints == {}, (t.event, complaints)
