"""Mana and activation costs (CR 106, 107.5, 107.6, 302.6, 605) as invariants.

Every expectation is computed from card data (Oracle text, through :mod:`.mana_model`)
and the observation before the event, never from the engine's own account of what it
did: the amount a mana ability adds is its printed amount times the replacement effects
on the battlefield, in any order (CR 106.12b, 616.1), plus one per "tapped for mana"
trigger (106.12a); the types are those its text and "could produce" (106.7) allow; an
undefined type adds nothing (106.5); {T}, {Q} and summoning sickness refuse what the
rules refuse (107.5, 107.6, 302.6); pools are empty after a step ends (106.4).

The rulings shared by the project's source documents on mana and costs are CR 106.5,
106.7, 106.12, 106.12a, 106.12b, 107.5 and 107.6 word for word; each invariant cites the
rule it encodes.
"""

from __future__ import annotations

from harness import decisions as D
import invariants.mana_model as M
from .base import Transition, invariant

# The same rules as Orb of Origin's rulings page states them (2024-11-08).
_ORB = "Orb of Origin 2024-11-08: "
ORB_UNDEFINED = _ORB + "If an ability would produce one or more mana of an undefined type"
ORB_COULD_PRODUCE = _ORB + "Some abilities produce mana based on the type of mana"
ORB_TAP_FOR_MANA = _ORB + 'To "tap [a permanent] for mana"'
ORB_TRIGGERS = _ORB + 'An ability that triggers whenever a permanent "is tapped for mana"'
ORB_REPLACEMENT = _ORB + 'A replacement effect that applies if a permanent "is tapped for mana"'
ORB_TAP = _ORB + "The tap symbol is {T}."
ORB_UNTAP = _ORB + "The untap symbol is {Q}."


def _activation(t: Transition):
    """(id, object before, ability, controller) for an ``activate`` event on a permanent, else None."""
    found = M.activation_on_battlefield(t.event, t.before)
    if found is None:
        return None
    oid, o, ability = found
    if ability is None or ability.zone != "battlefield":
        return None
    return oid, o, ability, o["controller"]


def _cost_total(ability: M.Ability) -> int:
    return sum(int(s) if s.isdigit() else 1 for s in ability.mana_cost)


def _expected_types(t: Transition, o: dict, ability: M.Ability) -> frozenset[str]:
    """The types ``ability`` would add before replacement effects (CR 106.7 for the
    "could produce" abilities); empty when none can be defined (106.5)."""
    return M.base_types(t.before, o, ability, M.could_produce(t.before))


def _effects(t: Transition, o: dict, ability: M.Ability, player: str) -> list[tuple[str, int]]:
    if not ability.tap:  # CR 106.12: only a mana ability with {T} in its cost taps the permanent for mana
        return []
    return [(kind, factor) for _, kind, factor in M.replacements_for(t.before, o, player)]


def _triggers(t: Transition, o: dict, ability: M.Ability) -> list[str]:
    """Ids of the "whenever a player taps a land for mana" permanents that trigger (CR 106.12a)."""
    if not ability.tap or not M.is_land(o):
        return []
    return [i for i, x in M.battlefield(t.before) if M.land_trigger(x["name"])]


def _delta(t: Transition, player: str) -> dict[str, int]:
    before, after = M.pool(t.before, player), M.pool(t.after, player)
    return {k: after[k] - before[k] for k in M.MANA_TYPES}


@invariant("mana.amount", rules=("106.12b", "616.1", "614.5", "106.12a", "605.3b", "605.4a"),
           rulings=(ORB_REPLACEMENT, ORB_TRIGGERS), requires=("mana",), on=("activate",))
def amount(t: Transition):
    """Mana added = the ability's amount times the replacement effects, plus one per trigger.

    When a mana ability resolves, the mana it adds is its printed amount, modified once by
    each "tapped for mana" replacement effect in the order the player chose (twice as much,
    three times as much, or Contamination's one {B}); each Heartbeat of Spring or Mana
    Flare then adds one more. Mana spent on its cost is subtracted; no other pool changes.
    """
    found = _activation(t)
    if t.illegal is not None or found is None or found[2].produces is None:
        return None
    oid, o, ability, player = found
    if ability.produces == M.FIXED:
        base = {m: ability.fixed.count(m) for m in set(ability.fixed)}
    else:
        types = _expected_types(t, o, ability)
        base = {sorted(types)[0]: 1} if types else {}
    totals = sorted({sum(r.values()) for r in M.outcomes(base, _effects(t, o, ability, player))}) if base else [0]
    triggers = len(_triggers(t, o, ability)) if base else 0
    expected = [total + triggers - _cost_total(ability) for total in totals]
    got = sum(_delta(t, player).values())
    out = []
    if got not in expected:
        out.append(f"{oid} ({o['name']}) ability {t.event.get('ability')}: {player}'s pool changed by {got}, expected "
                   f"{' or '.join(map(str, expected))} (amount {sum(base.values())}, replacement effects "
                   f"{_effects(t, o, ability, player) if base else []}, {triggers} trigger(s), cost "
                   f"{_cost_total(ability)})")
    for other in t.before["players"]:
        if other != player and M.pool(t.before, other) != M.pool(t.after, other):
            out.append(f"{other}'s pool changed when {player} activated {oid}: {M.pool(t.before, other)} -> "
                       f"{M.pool(t.after, other)}")
    return out


@invariant("mana.types", rules=("106.7", "106.12b", "106.1b"), rulings=(ORB_COULD_PRODUCE,), requires=("mana",),
           on=("activate",))
def types(t: Transition):
    """A mana ability adds only types its text allows ("could produce" computed from the board).

    For Reflecting Pool, Exotic Orchard and Fellwar Stone, the types any land (you
    control, an opponent controls) could produce, with replacement effects in any order
    and costs ignored (CR 106.7); when the player is asked for a type, the options are
    exactly those, whatever order the permanents are in.
    """
    found = _activation(t)
    if t.illegal is not None or found is None or found[2].produces is None:
        return None
    oid, o, ability, player = found
    base = frozenset(ability.fixed) if ability.produces == M.FIXED else _expected_types(t, o, ability)
    if not base:
        return None  # mana.undefined_type_produces_nothing
    allowed: set[str] = set()
    for result in M.outcomes({m: 1 for m in base}, _effects(t, o, ability, player)):
        allowed.update(m for m, n in result.items() if n)
    gained = {m for m, n in _delta(t, player).items() if n > 0}
    out = []
    if not gained <= allowed:
        out.append(f"{oid} ({o['name']}) added {sorted(gained - allowed)}, which it can't produce here "
                   f"(allowed: {sorted(allowed)})")
    if ability.produces != M.FIXED:
        asked = [d for d in t.decisions if d.kind == D.MANA_TYPE]
        if asked and set(asked[0].options) != set(base):
            out.append(f"{player} was offered types {sorted(asked[0].options)} for {oid} ({o['name']}); it could "
                       f"produce {sorted(base)} (CR 106.7)")
    return out


@invariant("mana.undefined_type_produces_nothing", rules=("106.5", "106.7"), rulings=(ORB_UNDEFINED,),
           requires=("mana",), on=("activate",))
def undefined_type_produces_nothing(t: Transition):
    """An ability that would produce mana of an undefined type produces no mana.

    E.g. Reflecting Pool when no land its controller controls could produce any mana
    (two Reflecting Pools looking only at each other): nothing is added, not even
    colourless, and nothing triggers.
    """
    found = _activation(t)
    if t.illegal is not None or found is None or found[2].produces in (None, M.FIXED, M.ANY_COLOR):
        return None
    oid, o, ability, player = found
    if _expected_types(t, o, ability):
        return None
    gained = {m: n for m, n in _delta(t, player).items() if n > 0}
    out = []
    if gained:
        out.append(f"{oid} ({o['name']}) could produce no type of mana but added {gained}")
    fired = [e for e in t.log if e.get("kind") == "trigger" and e.get("source") in _triggers(t, o, ability)]
    if fired:
        out.append(f"{oid} produced no mana, yet {[e['source'] for e in fired]} triggered (CR 106.12a)")
    return out


@invariant("mana.tapped_for_mana_triggers", rules=("106.12", "106.12a", "605.1b"),
           rulings=(ORB_TAP_FOR_MANA, ORB_TRIGGERS), requires=("mana", "triggers"), on=("activate",))
def tapped_for_mana_triggers(t: Transition):
    """Each "whenever a player taps a land for mana" permanent triggers once per land mana
    ability with {T} that resolved and produced mana, and never otherwise.

    Not for a {Q} or other non-{T} mana ability, not for a non-land, not when it produced
    no mana; each Heartbeat of Spring or Mana Flare triggers separately.
    """
    found = _activation(t)
    if t.illegal is not None or found is None:
        return None
    oid, o, ability, player = found
    watchers = [i for i, x in M.battlefield(t.before) if M.land_trigger(x["name"])]
    if not watchers:
        return None
    should = set(_triggers(t, o, ability)) if ability.produces is not None else set()
    if ability.produces not in (None, M.FIXED, M.ANY_COLOR) and not _expected_types(t, o, ability):
        should = set()
    out = []
    for w in watchers:
        fired = sum(1 for e in t.log if e.get("kind") == "trigger" and e.get("source") == w)
        want = 1 if w in should else 0
        if fired != want:
            out.append(f"{w} ({t.before['objects'][w]['name']}) triggered {fired} time(s) when {oid} "
                       f"({o['name']}) ability {t.event.get('ability')} was activated; expected {want}")
    return out


@invariant("mana.replacement_order_chosen", rules=("616.1", "106.12b"), requires=("mana",), on=("activate",))
def replacement_order_chosen(t: Transition):
    """When replacement effects on a mana production event give different results in
    different orders, the player who tapped the permanent chooses the order (CR 616.1)."""
    found = _activation(t)
    if t.illegal is not None or found is None or found[2].produces is None:
        return None
    oid, o, ability, player = found
    effects = _effects(t, o, ability, player)
    if len(effects) < 2 or len(M.outcomes({"G": 1}, effects)) < 2:
        return None
    if ability.produces != M.FIXED and not _expected_types(t, o, ability):
        return None
    asked = [d for d in t.decisions if d.kind == D.REPLACEMENT_EFFECT]
    if not asked:
        if D.unknown_asked(t.decisions):  # asked under a kind the table does not know
            return None
        return [f"{len(effects)} replacement effects applied to {oid}'s mana in an order nobody chose"]
    return [f"{d.player} chose the order of the replacement effects; {player} tapped {oid}"
            for d in asked if d.player != player]


@invariant("mana.pool_empties", refused=False, rules=("106.4", "500.4"), requires=("mana",),
           on=("pass_step", "begin_turn", "cleanup"))
def pool_empties(t: Transition):
    """Every mana pool is empty after a step ends (``pass_step``, ``begin_turn``, ``cleanup``).

    Applies when some player had mana before the step ended.
    """
    if t.illegal is not None or t.event.get("type") not in ("pass_step", "begin_turn", "cleanup"):
        return None
    if not any(any(M.pool(t.before, p).values()) for p in t.before["players"]):
        return None
    return [f"{p}'s mana pool is {M.pool(t.after, p)} after {t.event['type']}: expected it empty (players.{p}.mana_pool "
            f"all 0: a pool empties at the end of each step and phase, CR 106.4, 500.4)" for p in t.after["players"]
            if any(M.pool(t.after, p).values())]


#: The keys of a mana pool (CR 106.1b, 106.4): one per mana type.
_MANA_TYPES = frozenset(M.MANA_TYPES)
_INT = {int}


@invariant("mana.pool_shape", rules=("106.1b", "106.4"), requires=("mana",))
def pool_shape(t: Transition):
    """Each player's ``mana_pool`` is ``{"W", "U", "B", "R", "G", "C"}`` -> a non-negative amount.

    Applies when the observation has mana pools at all (an engine claiming ``mana`` that
    shows none breaks ``mana.amount`` on its first mana ability).
    """
    players = t.after["players"]
    pooled = False  # whether a player has one
    for player in players.values():
        if type(player) is dict:  # an observation's, as the reference engine gives: one pass, read in C
            found = player.get("mana_pool")
            if type(found) is dict and found.keys() == _MANA_TYPES and set(map(type, found.values())) == _INT \
                    and min(found.values()) >= 0:
                pooled = True
                continue  # plain ints (no bool), none negative: _pool_messages has nothing to say of it
        return _pool_messages(players)
    return [] if pooled else None


def _pool_messages(players: dict) -> list[str] | None:
    """:func:`pool_shape`'s messages on ``players`` (None when no player has a ``mana_pool``)."""
    if not any(isinstance(p, dict) and "mana_pool" in p for p in players.values()):
        return None
    out = []
    for p, player in players.items():
        found = player.get("mana_pool")
        if not isinstance(found, dict) or found.keys() != _MANA_TYPES or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in found.values()):
            out.append(f"{p}'s mana_pool is {found!r}; expected an amount >= 0 of each of W U B R G C")
    return out


@invariant("turn.untap_step", refused=False, rules=("502.3", "302.6"), requires=("mana",), on=("begin_turn",))
def untap_step(t: Transition):
    """``begin_turn`` P: P's permanents untap and stop being summoning sick; other players'
    permanents keep their tapped status."""
    if t.illegal is not None or t.event.get("type") != "begin_turn":
        return None
    player = t.event.get("player")
    out = []
    for oid, o in M.battlefield(t.after):
        if o["controller"] == player:
            if o["tapped"] or o["summoning_sick"]:
                out.append(f"{oid} ({o['name']}) of {player} is tapped={o['tapped']}, "
                           f"summoning_sick={o['summoning_sick']} after {player}'s turn began: expected both false "
                           f"(CR 502.3, 302.6)")
        elif oid in t.before["objects"] and t.before["objects"][oid]["tapped"] != o["tapped"]:
            out.append(f"{oid} of {o['controller']} changed tapped status when {player}'s turn began (tapped "
                       f"{t.before['objects'][oid]['tapped']} -> {o['tapped']}): only the active player's "
                       f"permanents untap (CR 502.3)")
    return out


@invariant("costs.tap_symbol", rules=("107.5",), rulings=(ORB_TAP,), requires=("tap_untap_costs",), on=("activate",))
def tap_symbol(t: Transition):
    """{T} in an activation cost means "tap this permanent": a tapped permanent can't pay it,
    and once it is paid the permanent is tapped."""
    found = _activation(t)
    if found is None or not found[2].tap or found[2].untap:
        return None
    oid, o, ability, player = found
    if o["tapped"]:
        return [] if t.illegal is not None else [f"{oid} ({o['name']}) was tapped, yet its {{T}} ability was "
                                                 "activated (CR 107.5)"]
    after = t.after["objects"].get(oid)
    if t.illegal is None and after is not None and after["zone"] == "battlefield" and not after["tapped"]:
        return [f"{oid} ({o['name']}) paid {{T}} but is untapped"]
    return []


@invariant("costs.untap_symbol", rules=("107.6",), rulings=(ORB_UNTAP,), requires=("tap_untap_costs",),
           on=("activate",))
def untap_symbol(t: Transition):
    """{Q} in an activation cost means "untap this permanent": an untapped permanent can't pay
    it, and once it is paid the permanent is untapped."""
    found = _activation(t)
    if found is None or not found[2].untap or found[2].tap:
        return None
    oid, o, ability, player = found
    if not o["tapped"]:
        return [] if t.illegal is not None else [f"{oid} ({o['name']}) was untapped, yet its {{Q}} ability was "
                                                 "activated (CR 107.6)"]
    after = t.after["objects"].get(oid)
    if t.illegal is None and after is not None and after["zone"] == "battlefield" and after["tapped"]:
        return [f"{oid} ({o['name']}) paid {{Q}} but is tapped"]
    return []


@invariant("costs.summoning_sickness", rules=("302.6", "107.5", "107.6"), requires=("tap_untap_costs",),
           on=("activate",))
def summoning_sickness(t: Transition):
    """A creature's ability with {T} or {Q} in its cost can't be activated unless its
    controller has controlled it continuously since their most recent turn began."""
    found = _activation(t)
    if found is None or not (found[2].tap or found[2].untap):
        return None
    oid, o, ability, player = found
    if "Creature" not in o["types"] or not o["summoning_sick"]:
        return None
    return [] if t.illegal is not None else [f"{oid} ({o['name']}) is a summoning-sick creature, yet its ability "
                                             f"{t.event.get('ability')} with {{T}}/{{Q}} was activated"]


@invariant("costs.mana_from_pool", rules=("601.2h", "602.2b", "106.4"), requires=("tap_untap_costs", "mana"),
           on=("activate",))
def mana_from_pool(t: Transition):
    """An ability's mana cost is paid from its controller's pool: one that the pool can't pay
    can't be activated, and a non-mana ability's activation takes exactly its cost."""
    found = _activation(t)
    if found is None or not found[2].mana_cost:
        return None
    oid, o, ability, player = found
    can = M.payable(M.pool(t.before, player), ability.mana_cost)
    if can is None:
        return None
    if not can:
        return [] if t.illegal is not None else [f"{player}'s pool {M.pool(t.before, player)} can't pay "
                                                 f"{ability.mana_cost} for {oid}, yet it was activated"]
    if t.illegal is not None or ability.produces is not None:
        return []
    got = -sum(_delta(t, player).values())
    return [] if got == _cost_total(ability) else [f"activating {oid} ({o['name']}) took {got} mana from {player}'s "
                                                   f"pool; its cost is {_cost_total(ability)}"]
