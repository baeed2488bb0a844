"""The stack and priority (capability ``stack``; CR 405, 117, 601.2, 603.3b, 608.2).

Checked in games whose board says ``"stack": true``, from the observations before and after
each event (their ``stack`` and ``priority``, harness.protocol "The stack"), the event and the
card data; never from the engine's account of what it meant to do:

* nothing leaves the stack unless every player has passed in succession, and then the top
  object does (CR 117.4, 117.3d, 405.5);
* the object that leaves is the last one put on the stack (405.5: last in, first out);
* a cast puts the spell on the stack, with its targets, and its caster keeps priority
  (601.2a, 601.2c, 117.3c); an instant or sorcery that left the stack is in its owner's
  graveyard, a permanent spell is a permanent or in a graveyard (608.2n, 608.3a, 608.2b);
* a spell or triggered ability all of whose targets are gone from the battlefield does
  nothing (608.2b) and a spell goes to its owner's graveyard;
* triggered abilities put on the stack at once go in APNAP order: the active player's first
  (603.3b, 101.4), so the nonactive player's resolve first;
* leaves-the-battlefield abilities use last known information (603.10a, 608.2h): Penumbra
  Umbra's ability makes its one black token copy even when the creature it enchanted left
  the battlefield before the ability resolved (its ruling); Hangarback Walker's Thopters are
  counted from its +1/+1 counters as it last existed (scenario scope: the counters are those
  of the step it died, the Thopters those of the step its ability resolved).

In a game without the stack none of these applies (the observation has no ``stack``).
"""

from __future__ import annotations

import re

from .base import ScenarioRun, Transition, invariant
from .card_abilities import card_text
from .triggers import _TOKENS_PER_COUNTER

STACK = ("stack",)
PENUMBRA_RULING = "Penumbra Umbra 2024-11-08: If the enchanted creature is no longer"
#: "When ~ is put into a graveyard from the battlefield, create a token that's a copy of enchanted
#: creature, except the token is black." (Penumbra Umbra)
_COPY_ENCHANTED = re.compile(r"When (?P<name>[^,]+) is put into a graveyard from the battlefield, create a token "
                             r"that's a copy of enchanted creature, except the token is (?P<color>\w+)\.")
_COLOR_LETTER = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def _stack(obs) -> list | None:
    stack = obs.get("stack") if isinstance(obs, dict) else None
    return stack if isinstance(stack, list) else None


def _ids(stack) -> list:
    return [e.get("id") for e in stack if isinstance(e, dict)]


def _priority(obs) -> dict:
    value = obs.get("priority") if isinstance(obs, dict) else None
    return value if isinstance(value, dict) else {}


def _live_players(obs) -> set:
    return {p for p, state in (obs.get("players") or {}).items() if not (state or {}).get("lost")}


def completes_passes(t: Transition) -> bool:
    """Whether ``t``'s event is a pass after which every player still in the game has passed in
    succession (CR 117.4), judged from the ``priority`` before it."""
    if t.event.get("type") != "pass_priority":
        return False
    passed = set(_priority(t.before).get("passed") or ()) | {t.event.get("player")}
    return _live_players(t.before) <= passed


def _left(t: Transition) -> list:
    """The stack objects of ``before`` that are no longer on the stack after the event."""
    after = set(_ids(_stack(t.after) or []))
    return [e for e in _stack(t.before) or [] if isinstance(e, dict) and e.get("id") not in after]


def _pass_problems(t: Transition, before: list, after: list) -> list[str]:
    """A pass: only by the player holding priority (CR 117.3d); the last of a succession resolves the
    top object and gives the active player priority (117.4, 405.5, 117.3b); another changes nothing
    but who passed (117.4)."""
    out = []
    was, now = _priority(t.before), _priority(t.after)
    player = t.event.get("player")
    if player != was.get("player"):
        return [f"{player} passed priority but {was.get('player')} held it (CR 117.3d): the pass must be refused"]
    if completes_passes(t):
        if before and before[-1].get("id") in _ids(after):
            out.append(f"every player passed in succession ({sorted(_live_players(t.before))}) but the top of "
                       f"the stack, {before[-1].get('id')}, is still on it (CR 117.4, 405.5)")
        if not any(p.get("lost") for p in t.after["players"].values()):
            if now.get("player") != now.get("active_player") or now.get("passed"):
                out.append(f"after the top of the stack resolved the active player {now.get('active_player')} "
                           f"receives priority with no pass (CR 117.3b); the observation says {now}")
        return out
    if _ids(after) != _ids(before):
        out.append(f"{player} passed but not every player has passed in succession (passed before: "
                   f"{was.get('passed')}): the stack must not change (CR 117.4); it went from {_ids(before)} to "
                   f"{_ids(after)}")
    expected = [*(was.get("passed") or []), player]
    if now.get("passed") != expected:
        out.append(f"after {player}'s pass the players who passed in succession are {expected}, not "
                   f"{now.get('passed')} (CR 117.4)")
    return out


@invariant("stack.resolves_only_when_all_pass", rules=("117.4", "117.3d", "405.5", "117.3b", "117.3c"), requires=STACK,
           refused=False)
def resolves_only_when_all_pass(t: Transition):
    """Nothing on the stack resolves until every player has passed priority in succession; then
    the top object does, and the active player receives priority.

    Only the player who holds priority passes (CR 117.3d); a pass that doesn't complete the
    succession changes nothing but priority, which goes to the next player in turn order; any
    other event leaves what was on the stack where it was (new objects go on top, 405.2) and
    starts the succession again (117.4: "without taking any actions in between").
    """
    before, after = _stack(t.before), _stack(t.after)
    if before is None or after is None or t.illegal is not None or t.error is not None:
        return None
    out = []
    kind = t.event.get("type")
    now = _priority(t.after)
    if kind == "pass_priority":
        return _pass_problems(t, before, after)
    if not before:
        return None
    if _ids(after)[:len(before)] != _ids(before):
        out.append(f"a {kind} event, not a pass, changed what was on the stack: {_ids(before)} became "
                   f"{_ids(after)} (CR 117.4: it resolves only when every player passes in succession; new "
                   f"objects go on top, 405.2)")
    if now.get("passed"):
        out.append(f"after a {kind} event the succession of passes starts again (CR 117.4), but "
                   f"priority.passed is {now.get('passed')}")
    return out


@invariant("stack.last_in_first_out", rules=("405.5", "608.1"), requires=STACK,
           refused=False, on_stack=True)
def last_in_first_out(t: Transition):
    """The object that leaves the stack is the last one put on it, one at a time; the others stay
    in order (the stack resolves last in, first out)."""
    before, after = _stack(t.before), _stack(t.after)
    if t.illegal is not None or not before or after is None:  # nothing on the stack before: nothing left it
        return None
    left = _left(t)
    if not left:
        return None
    out = []
    if len(left) > 1 or left[0] is not before[-1]:
        out.append(f"{[e.get('id') for e in left]} left the stack {_ids(before)} (bottom to top); only the top "
                   f"one, {before[-1].get('id')}, resolves when every player passes (CR 405.5, 608.1)")
    elif _ids(after)[:len(before) - 1] != _ids(before)[:-1]:
        out.append(f"the stack {_ids(before)} became {_ids(after)}: below its top the stack doesn't change as the "
                   f"top resolves (CR 405.5)")
    return out


@invariant("stack.cast_puts_the_spell_on_the_stack", refused=False,
           rules=("601.2a", "601.2c", "117.3c", "405.2"), requires=STACK,
           on=("cast",))
def cast_puts_the_spell_on_the_stack(t: Transition):
    """A spell cast in a game with the stack goes on top of the stack with the targets it was cast
    with, controlled by its caster, who then holds priority; it does nothing yet (its card is not
    among the objects)."""
    after = _stack(t.after)
    if t.illegal is not None or t.event.get("type") != "cast" or after is None:
        return None
    before = _ids(_stack(t.before) or [])
    oid, caster = t.event.get("id"), t.event.get("controller")
    new = [e for e in after if isinstance(e, dict) and e.get("id") not in before]
    out = []
    spell = next((e for e in new if e.get("id") == oid), None)
    if spell is None or new[0] is not spell:
        out.append(f"the cast spell {oid!r} is not the first new object on the stack {_ids(after)} (CR 601.2a)")
    else:
        wanted = {"kind": "spell", "card": t.event.get("card"), "controller": caster,
                  "targets": list(t.event.get("targets") or [])}
        got = {k: spell.get(k) for k in wanted}
        if got != wanted:
            out.append(f"the spell on the stack is {got}; the cast was {wanted} (CR 601.2a, 601.2c)")
    if oid in t.after["objects"]:
        out.append(f"the spell {oid!r} is among the objects ({t.after['objects'][oid].get('zone')}) while it should "
                   f"be on the stack: it resolves only when every player passes (CR 117.4, 608.1)")
    holder = _priority(t.after).get("player")
    if holder != caster:
        out.append(f"after casting a spell its caster {caster} holds priority (CR 117.3c), not {holder}")
    return out


@invariant("stack.spell_leaves_to_its_zone", rules=("608.2n", "608.3a", "608.2b", "608.3b", "404.1"), requires=STACK,
           refused=False, on_stack=True)
def spell_leaves_to_its_zone(t: Transition):
    """A spell that leaves the stack becomes an object of the game owned by its caster: an instant
    or sorcery in its owner's graveyard (as it resolves, or when all its targets are illegal), a
    permanent spell on the battlefield (or in the graveyard: an Aura with an illegal target, or
    a permanent that died at once)."""
    if t.illegal is not None or not _stack(t.before):  # nothing on the stack before: nothing left it
        return None
    spells = [e for e in _left(t) if e.get("kind") == "spell"]
    if not spells:
        return None
    out = []
    for e in spells:
        oid, obj = e.get("id"), t.after["objects"].get(e.get("id"))
        types = _types(e.get("card"))
        if obj is None:
            out.append(f"spell {oid} ({e.get('card')}) left the stack but is no object of the game: a card goes to "
                       f"its owner's graveyard or the battlefield (CR 608.2n, 608.3a)")
            continue
        if obj.get("owner") != e.get("controller"):
            out.append(f"spell {oid} ({e.get('card')}) is owned by {obj.get('owner')}, not by its caster "
                       f"{e.get('controller')} (CR 108.3)")
        if types & {"Instant", "Sorcery"}:
            listed = ((t.after.get("zones") or {}).get("graveyard") or {}).get(e.get("controller")) or []
            if obj.get("zone") != "graveyard" or oid not in listed:
                out.append(f"instant or sorcery {oid} ({e.get('card')}) left the stack to the {obj.get('zone')}: "
                           f"expected its owner {e.get('controller')}'s graveyard (CR 608.2n, 608.2b)")
        elif obj.get("zone") not in ("battlefield", "graveyard"):
            out.append(f"permanent spell {oid} ({e.get('card')}) left the stack to the {obj.get('zone')}: expected "
                       f"the battlefield (CR 608.3a) or, not resolving, its owner's graveyard (608.3b)")
    return out


def _types(name) -> set:
    from .card_abilities import _card

    card = _card(name)
    return set(card.types) if card is not None else set()


def _a_target_is_legal(t: Transition, targets: list) -> bool:
    """Whether a target is still legal as the object resolves: a player still in the game, or a
    permanent still on the battlefield (CR 608.2b, 400.7)."""
    before, players = t.before["objects"], t.before["players"]
    for target in targets:
        if target in players:
            if not players[target].get("lost"):
                return True
        elif target in before and before[target].get("zone") == "battlefield":
            return True
    return False


def _changed_anyway(t: Transition, top: dict, targets: list) -> list[str]:
    """What changed although ``top`` doesn't resolve: players, an object, objects that appeared (CR 608.2b)."""
    out = []
    before, players = t.before["objects"], t.before["players"]
    if t.after["players"] != players:
        changed = [p for p in players if t.after["players"].get(p) != players[p]]
        out.append(f"{top.get('id')} ({top.get('card') or top.get('source')}) had no legal target left "
                   f"{targets} but players changed: {changed} (CR 608.2b: it doesn't resolve)")
    for oid, obj in before.items():
        if t.after["objects"].get(oid) != obj:
            out.append(f"{top.get('id')} ({top.get('card') or top.get('source')}) had no legal target left "
                       f"{targets} but {oid} ({obj.get('name')}) changed (CR 608.2b: it doesn't resolve)")
            break
    created = [oid for oid in t.after["objects"] if oid not in before and oid != top.get("id")]
    if created:
        out.append(f"{top.get('id')} had no legal target left {targets} but objects appeared: {created} (CR 608.2b)")
    return out


@invariant("stack.illegal_targets_no_effect", refused=False, rules=("608.2b", "400.7", "608.2n"), requires=STACK,
           on=("pass_priority",))
def illegal_targets_no_effect(t: Transition):
    """A spell or triggered ability whose targets are all gone from the battlefield (or players who
    lost) when every player passes doesn't resolve: no player and no object changes, and a spell
    goes to its owner's graveyard."""
    stack = _stack(t.before)
    if t.illegal is not None or not completes_passes(t) or not stack:
        return None
    top = stack[-1]
    targets = top.get("targets") or []
    if not targets or (top.get("kind") != "spell" and top.get("trigger") is None):
        return None  # activated abilities may target cards in graveyards (Order of Whiteclay)
    if _a_target_is_legal(t, targets):
        return None
    return _changed_anyway(t, top, targets)


def _apnap(obs: dict) -> list:
    players = list(obs.get("players") or {})
    active = _priority(obs).get("active_player")
    if active not in players:
        return players
    i = players.index(active)
    return players[i:] + players[:i]


@invariant("stack.triggers_in_apnap_order", rules=("603.3b", "101.4"), requires=STACK,
           refused=False, on_stack=True)
def triggers_in_apnap_order(t: Transition):
    """Triggered abilities put on the stack at the same time go in APNAP order: all of the active
    player's first, then the next player's (so the nonactive player's resolve first)."""
    after = _stack(t.after)
    if t.illegal is not None or not after:  # nothing on the stack after: no trigger was put on it
        return None
    before = set(_ids(_stack(t.before) or []))
    new = [e for e in after if isinstance(e, dict) and e.get("id") not in before
           and e.get("trigger") is not None]
    if len({e.get("controller") for e in new}) < 2:
        return None
    order = _apnap(t.after)
    rank = [order.index(e.get("controller")) if e.get("controller") in order else len(order) for e in new]
    if rank != sorted(rank):
        return [f"triggered abilities put on the stack at once, bottom to top: "
                f"{[(e.get('id'), e.get('controller')) for e in new]}; in APNAP order {order} each player's go on "
                f"the stack after the previous player's (CR 603.3b)"]
    return []


def _tokens_made_by(log: list, source) -> list:
    """The tokens ``source``'s ability created (``zone_change`` entries from nowhere, caused by ``create_token``)."""
    return [x["object"] for x in log if x.get("kind") == "zone_change" and x.get("from") is None
            and isinstance(x.get("cause"), dict) and x["cause"].get("event") == "create_token"
            and x["cause"].get("by") == source]


def _penumbra_copy(t: Transition, e: dict, source: dict, match: re.Match) -> list[str]:
    """The resolved ability ``e`` of ``source`` made one token, of the exception's colour (CR 707.9b)."""
    made = _tokens_made_by(t.log, e.get("source"))
    if len(made) != 1:
        return [f"{e.get('source')}'s ability ({source.get('name')}) resolved and made {len(made)} token(s) "
                f"{made}: it makes one copy of the creature it enchanted, as it last existed on the "
                f"battlefield if it has left (CR 603.10a, 608.2h; ruling)"]
    token = t.after["objects"].get(made[0])
    color = _COLOR_LETTER.get(match["color"])
    if token is not None and token.get("zone") == "battlefield" and color and token.get("colors") != [color]:
        return [f"{made[0]}, the copy {e.get('source')} made, is {token.get('colors')}: the exception makes it "
                f"{match['color']} (CR 707.9b)"]
    return []


@invariant("stack.penumbra_copies_as_it_last_existed", refused=False, rules=("603.10a", "608.2h", "707.9b", "111.12"),
           rulings=(PENUMBRA_RULING,), requires=STACK, on_log=("resolved",))
def penumbra_copies_as_it_last_existed(t: Transition):
    """A Penumbra Umbra-style ability ("When this is put into a graveyard from the battlefield, create a
    token that's a copy of enchanted creature, except the token is black") that resolves makes exactly
    one token of that colour, also when the creature it enchanted left the battlefield before the
    ability resolved: its copiable values as it last existed there (its ruling)."""
    if t.illegal is not None:
        return None
    resolved = {e.get("object") for e in t.log if e.get("kind") == "resolved"}
    out = []
    applicable = False
    for e in _left(t):
        source = t.before["objects"].get(e.get("source"))
        if e.get("trigger") != "put into a graveyard" or source is None or e.get("id") not in resolved:
            continue
        match = _COPY_ENCHANTED.search(card_text(source.get("name")))
        if match is not None:
            applicable = True
            out += _penumbra_copy(t, e, source, match)
    return out if applicable else None


def _counters_as_it_last_existed(was: dict, log: list, source) -> int:
    """The +1/+1 counters of ``source`` as it last existed on the battlefield (CR 603.10a): those it
    had before the step and those put on it during the step it died."""
    return (was.get("counters") or {}).get("+1/+1", 0) + sum(
        x.get("amount", 0) for x in log if x.get("kind") == "counters_added" and x.get("object") == source
        and x.get("counter") == "+1/+1")


def _dies_abilities_put(before: dict, stack: list, log: list, expected: dict[str, tuple[str, int]]) -> None:
    """Adds to ``expected`` the "create a token for each +1/+1 counter" dies abilities the step put on
    the stack, each with its source and the counters it had as it last existed."""
    for e in stack:
        sid, source = e.get("id"), e.get("source")
        if sid in expected or e.get("trigger") != "dies" or sid in _ids(_stack(before) or []):
            continue
        was = before["objects"].get(source)
        if was is None or was.get("zone") != "battlefield" or not _TOKENS_PER_COUNTER.search(
                card_text(was.get("name"))):
            continue
        expected[sid] = (source, _counters_as_it_last_existed(was, log, source))


def _tokens_per_counter_resolved(step: int, log: list, expected: dict[str, tuple[str, int]]) -> list[str]:
    """The abilities of ``expected`` that resolved in the step (removed from it) made as many tokens as
    their source had counters (CR 608.2h)."""
    out = []
    resolved = {x.get("object") for x in log if x.get("kind") == "resolved"}
    for sid in list(expected):
        if sid in resolved:
            source, count = expected.pop(sid)
            made = _tokens_made_by(log, source)
            if len(made) != count:
                out.append(f"step {step}: {source}'s dies ability {sid} resolved and made {len(made)} token(s); "
                           f"{source} had {count} +1/+1 counter(s) as it last existed on the battlefield "
                           f"(CR 603.10a, 608.2h)")
    return out


@invariant("stack.tokens_per_counter_as_it_last_existed", rules=("603.10a", "608.2h", "700.4"), requires=STACK
           + ("counters",), scope="scenario")
def tokens_per_counter_as_it_last_existed(run: ScenarioRun):
    """A "When this dies, create a ... Thopter ... for each +1/+1 counter on it" ability (Hangarback Walker)
    that waited on the stack makes as many tokens as the creature had +1/+1 counters as it last
    existed on the battlefield: those of the step it died, whatever happened before the ability
    resolved."""
    observations = run.observations
    expected: dict[str, tuple[str, int]] = {}  # stack id -> (source, counters as it last existed)
    out = []
    for i in range(len(run.events)):
        before, after = observations[i], observations[i + 1] if i + 1 < len(observations) else None
        stack = _stack(after)
        if not isinstance(after, dict) or "replay failed" in after or stack is None:
            break
        log = after.get("log") or []
        if any(p.get("lost") for p in after["players"].values()):
            break
        _dies_abilities_put(before, stack, log, expected)
        out += _tokens_per_counter_resolved(i + 1, log, expected)
    return out
