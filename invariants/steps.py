"""The upkeep and draw steps (CR 503, 504) and a draw from an empty library (704.5b).

The ``begin_step`` event (capability ``steps``): ``{"type": "begin_step", "step": "upkeep" |
"draw", "player": P}``, the step of P's turn beginning. What should happen is worked out from the
event, the board before it and the card models of P's permanents (:func:`invariants.templates.read_model`:
"At the beginning of your upkeep" and "At the beginning of your draw step" abilities); the log is
read only for what happened (``trigger`` entries, ``zone_change`` entries).
"""

from __future__ import annotations

from collections import Counter
from typing import cast

import cards

from .base import Transition, invariant
from .chance import has_abilities
from .templates import read_model

#: begin_step's step -> the trigger condition of the card model's abilities it triggers.
STEP_TRIGGERS = {"upkeep": "upkeep", "draw": "draw step"}


def _step(t: Transition):
    """``(step, player)`` of a legal ``begin_step`` event, else None."""
    e = t.event
    if t.illegal is not None or e.get("type") != "begin_step" or e.get("step") not in STEP_TRIGGERS \
            or e.get("player") not in t.before["players"]:
        return None
    return e["step"], e["player"]


def step_abilities(before: dict, player: str, step: str) -> dict[str, list] | None:
    """``{permanent id: [its "at the beginning of your <step>" abilities]}`` of the permanents
    ``player`` controls before the event (with their abilities: not a tapped continuous one), read
    from their card models; None when one of ``player``'s permanents is of a card whose text isn't
    all read (it may have such an ability the reader doesn't know)."""
    found: dict[str, list] = {}
    for oid, o in before["objects"].items():
        if o.get("zone") != "battlefield" or o.get("controller") != player or not has_abilities(o):
            continue
        m = read_model(o.get("name"))
        if m is None:
            if o.get("token") or not _may_have_step_ability(o.get("name")):
                continue  # a token an effect defines, or a card whose text has no "At the beginning of"
            return None
        mine = [a for a in m.abilities if a.kind == "triggered" and a.trigger == STEP_TRIGGERS[step]]
        if mine:
            found[oid] = mine
    return found


def _may_have_step_ability(name) -> bool:
    """Whether the card named ``name`` (not all of its text read) may have an "at the beginning of" ability:
    its Oracle text says "At the beginning of" (or the name is no card: can't tell)."""
    try:
        text = cards.card(name).oracle_text if isinstance(name, str) else ""
    except cards.UnknownCardName:
        return True
    return "at the beginning of" in (text or "").lower()


def _zones(obs: dict, zone: str, player: str) -> list | None:
    zones = obs.get("zones")
    if not isinstance(zones, dict) or not isinstance(zones.get(zone), dict):
        return None
    found = zones[zone].get(player)
    return list(found) if isinstance(found, list) else None


@invariant("steps.step_triggers", rules=("503.1a", "504.2", "603.2"), requires=("steps", "triggers"),
           on=("begin_step",))
def step_triggers(t: Transition):
    """At the beginning of P's upkeep (draw step), each "At the beginning of your upkeep" ("... your draw
    step") ability of a permanent P controls triggers once, and nothing else triggers on the step.

    "Your" is the active player's: the other player's permanents don't trigger (CR 503.1a, 603.2); an
    upkeep ability doesn't trigger in the draw step, nor a draw step ability in the upkeep. Read from
    the log's ``trigger`` entries with ability ``upkeep`` or ``draw step``.
    """
    found = _step(t)
    if found is None:
        return None
    step, player = found
    expected = step_abilities(t.before, player, step)
    if expected is None:
        return None
    other = next(v for k, v in STEP_TRIGGERS.items() if k != step)
    # a trigger entry's source is a string (harness.wire.log_kinds)
    right = Counter(cast(str, e.get("source")) for e in t.log if e.get("kind") == "trigger"
                    and e.get("ability") == STEP_TRIGGERS[step])
    wrong = Counter(cast(str, e.get("source")) for e in t.log
                    if e.get("kind") == "trigger" and e.get("ability") == other)
    out = []
    for oid, abilities in expected.items():
        if right.get(oid, 0) != len(abilities):
            out.append(f"503.1a: {oid} ({t.before['objects'][oid].get('name')}) has {len(abilities)} \"at the "
                       f"beginning of your {STEP_TRIGGERS[step]}\" abilit{'y' if len(abilities) == 1 else 'ies'} and "
                       f"{player}'s {step} step began; the log shows {right.get(oid, 0)} trigger(s) with ability "
                       f"{STEP_TRIGGERS[step]!r}")
    for oid, n in right.items():
        if oid in expected:
            continue
        o = t.before["objects"].get(oid) or {}
        why = (f"it is controlled by {o.get('controller')}, not by {player}, whose step began (\"your\", CR 503.1a)"
               if o.get("controller") not in (None, player) else
               f"it has no \"at the beginning of your {STEP_TRIGGERS[step]}\" ability")
        out.append(f"603.2: {oid} ({o.get('name')}) triggered {n} time(s) at the beginning of {player}'s {step} step: "
                   f"{why}")
    for oid, n in wrong.items():
        o = t.before["objects"].get(oid) or {}
        out.append(f"603.2: {oid} ({o.get('name')}) triggered {n} time(s) with ability {other!r} in {player}'s {step} "
                   f"step: it triggers at the beginning of the {other} only")
    return out


def _hands_and_libraries(t: Transition, p: str) -> tuple[list, list, list, list] | None:
    """``p``'s hand and library before, then after the event; None when a zone isn't observed."""
    hand0, lib0 = _zones(t.before, "hand", p), _zones(t.before, "library", p)
    hand1, lib1 = _zones(t.after, "hand", p), _zones(t.after, "library", p)
    if hand0 is None or lib0 is None or hand1 is None or lib1 is None:
        return None
    return hand0, lib0, hand1, lib1


def _drew(p: str, player: str, step: str, hand0: list, lib0: list, hand1: list, lib1: list) -> list[str]:
    """``p`` drew one card of their library in their draw step (CR 504.1), none otherwise (503.1, 704.5b)."""
    drawn = [c for c in hand1 if c not in hand0 and c in lib0]
    want = 1 if p == player and step == "draw" and lib0 else 0
    if len(drawn) != want or len(lib0) - len(lib1) != want:
        what = f"{player}'s draw step: {player} draws a card (CR 504.1)" if want else (
            f"{player}'s {step}: nobody draws" if step == "upkeep" else
            f"{player}'s draw step: only {player} draws" if p != player else
            f"{player}'s library is empty: nothing is drawn (704.5b)")
        return [f"{what}; {p}'s library went {len(lib0)} -> {len(lib1)} card(s) and {len(drawn)} of its "
                f"cards went to {p}'s hand ({drawn})"]
    return []


@invariant("steps.draw_step_draws", rules=("504.1", "121.1", "503.1"), requires=("steps",), on=("begin_step",))
def draw_step_draws(t: Transition):
    """In P's draw step P draws one card (CR 504.1): one card of P's library goes to P's hand; in the
    upkeep nobody draws (503.1: no turn-based action).

    Read from the zones before and after (not applicable when zones aren't observed, or when an
    ability of the step may draw too). From an empty library nothing is drawn (704.5b is
    ``steps.empty_library_loses``)."""
    found = _step(t)
    if found is None:
        return None
    step, player = found
    abilities = step_abilities(t.before, player, step)
    if abilities is None or any(e.action == "draw" for a in sum(abilities.values(), []) for e in a.effects):
        return None
    out, checked = [], False
    for p in t.before["players"]:
        zones = _hands_and_libraries(t, p)
        if zones is None:
            return None
        checked = True
        out += _drew(p, player, step, *zones)
    return out if checked else None


@invariant("steps.empty_library_loses", rules=("704.5b", "504.1"), requires=("steps", "sba.empty_library"),
           on=("begin_step",))
def empty_library_loses(t: Transition):
    """A player whose draw step begins with no card in their library attempts to draw from an empty
    library and loses the game when state-based actions are checked (CR 704.5b); with cards in it,
    the draw doesn't make them lose.

    Read from the zones before the event (not applicable when zones aren't observed) and the players
    after it; a loss for another reason (0 or less life, 704.5a) is told apart by life totals."""
    found = _step(t)
    if found is None or found[0] != "draw":
        return None
    player = found[1]
    library = _zones(t.before, "library", player)
    if library is None or t.before["players"][player].get("lost"):
        return None
    after = t.after["players"].get(player) or {}
    if not library:
        if not after.get("lost"):
            return [f"704.5b: {player} began their draw step with an empty library, so attempted to draw from it, "
                    f"but has not lost the game"]
        return []
    if after.get("lost") and (after.get("life") or 0) > 0:
        return [f"704.5b: {player} drew from a library of {len(library)} card(s) and has {after.get('life')} life, "
                f"yet lost the game"]
    return []
