"""Cases of the zone-change invariants (``invariants/zone_changes.py``, capability ``zones``) for
tests/test_invariants.py: exile, return to hand and flicker, a correct step and a broken one each, the
observations written by hand and the expected values worked out from the rules cited (nothing is run).

Cards (Oracle text): Grizzly Bears 2/2; River Boa 2/1 "Islandwalk. {G}: Regenerate River Boa."; Hyena
Umbra "Enchanted creature gets +1/+1 and has first strike. Umbra armor"; Sword of the Meek "Equipped
creature gets +1/+2."; Hangarback Walker 0/0 "When Hangarback Walker dies, create a 1/1 colorless Thopter
artifact creature token with flying for each +1/+1 counter on Hangarback Walker."; Elvish Visionary 1/1
"When Elvish Visionary enters the battlefield, draw a card."; Thragtusk 5/3 "When Thragtusk enters the
battlefield, you gain 5 life. When Thragtusk leaves the battlefield, create a 3/3 green Beast creature
token."; Cloudshift "Exile target creature you control, then return that card to the battlefield under
your control."
"""

from __future__ import annotations

from harness.protocol import Transition
from tests.observations import card, observation, step

EXILE = {"type": "exile", "object": "b"}
BOUNCE = {"type": "return_to_hand", "object": "b"}
EXILE_CAUSE = {"event": "exile", "by": "exile effect"}
BOUNCE_CAUSE = {"event": "return_to_hand", "by": "return effect"}
FLICKER_CAUSE = {"event": "flicker", "by": "flicker effect"}
AURA_SBA = {"event": "state_based_action", "rule": "704.5m"}
TOKEN_SBA = {"event": "state_based_action", "rule": "704.5d"}
#: A card that left the battlefield is a new object (CR 400.7): nothing of the permanent it was.
LEFT = {"tapped": False, "damage": 0, "counters": {}, "attached_to": None, "combat": None,
        "regeneration_shields": 0, "summoning_sick": False}


def flicker(oid: str = "b", new_id: str = "b2") -> dict:
    return {"type": "flicker", "object": oid, "id": new_id}


def zc(oid: str, frm: str | None, to: str | None, cause: dict, **extra) -> dict:
    return {"kind": "zone_change", "object": oid, "from": frm, "to": to, "cause": cause, **extra}


def bears(**fields) -> dict:
    return card("Grizzly Bears", **{"types": ["Creature"], "subtypes": ["Bear"], "colors": ["G"], "power": 2,
                                    "toughness": 2, **fields})


def boa(**fields) -> dict:
    return card("River Boa", **{"types": ["Creature"], "subtypes": ["Snake"], "colors": ["G"],
                                "keywords": ["islandwalk"], "power": 2, "toughness": 1, **fields})


def hyena_umbra(on: str = "b", **fields) -> dict:
    return card("Hyena Umbra", types=["Enchantment"], subtypes=["Aura"], colors=["W"],
                keywords=["umbra armor"], attached_to=on, **fields)


def _relist(obs: dict, oid: str, zone: str, owner: str, holder: str) -> dict:
    """``obs`` with ``oid`` listed, wrongly, in ``holder``'s ``zone`` instead of its owner's."""
    obs["zones"][zone][owner].remove(oid)
    obs["zones"][zone][holder].append(oid)
    return obs


# ---------------------------------------------------------------- where it goes (CR 400.3, 108.3, 701.11a)
def bounce_stolen(hand_of: str = "P1") -> Transition:
    """P2 controls P1's Grizzly Bears; "return target permanent to its owner's hand" puts the card into its
    owner P1's hand (CR 400.3, 108.3), not into its controller's."""
    before = observation({"b": bears(controller="P2")})
    after = step(before, {"b": {"zone": "hand", "controller": "P1"}}, [zc("b", "battlefield", "hand", BOUNCE_CAUSE)])
    if hand_of != "P1":
        _relist(after, "b", "hand", "P1", hand_of)
    return Transition(before, BOUNCE, after)


def exiled_to(zone: str = "exile") -> Transition:
    """CR 701.11a: an exiled Grizzly Bears is in its owner's exile zone (broken: in the graveyard)."""
    before = observation({"b": bears()})
    return Transition(before, EXILE, step(before, {"b": {"zone": zone}}, [zc("b", "battlefield", zone, EXILE_CAUSE)]))


def exiled_card_vanished() -> Transition:
    """Broken CR 400.7: the exiled card is no object any more (a card never ceases to exist)."""
    before = observation({"b": bears()})
    return Transition(before, EXILE, step(before, {"b": None}, [zc("b", "battlefield", "exile", EXILE_CAUSE)]))


def exiled_card_changes_owner() -> Transition:
    """Broken CR 108.3: the card exiled is P2's after the move (it is listed in P2's exile)."""
    before = observation({"b": bears(controller="P2")})
    after = step(before, {"b": {"zone": "exile", "owner": "P2"}}, [zc("b", "battlefield", "exile", EXILE_CAUSE)])
    return Transition(before, EXILE, after)


def flicker_left_on_the_battlefield() -> Transition:
    """Broken CR 701.11a: the flickered Bears never left (no exile, no new object)."""
    before = observation({"b": bears()})
    return Transition(before, flicker(), step(before, {}))


# ---------------------------------------------------------------- no memory in exile or a hand (CR 400.7)
#: P1's River Boa, tapped, dealt 1 damage, with a +1/+1 counter (3/2) and a regeneration shield.
BATTERED_BOA = {"tapped": True, "damage": 1, "counters": {"+1/+1": 1}, "regeneration_shields": 1, "power": 3,
                "toughness": 2}


def boa_moved(event: dict = EXILE, **kept) -> Transition:
    """CR 400.7 (and 701.15a: the shield was for "the next time it would be destroyed this turn" of that
    permanent): the River Boa that left is a new object: no counter, damage, shield or tapped status; its
    printed 2/1."""
    zone, cause = ("exile", EXILE_CAUSE) if event["type"] == "exile" else ("hand", BOUNCE_CAUSE)
    before = observation({"b": boa(**BATTERED_BOA)})
    after = step(before, {"b": {**LEFT, "power": 2, "toughness": 1, "zone": zone, **kept}},
                 [zc("b", "battlefield", zone, cause)])
    return Transition(before, event, after)


# ---------------------------------------------------------------- flicker (CR 400.7, 610.3c, 302.6, 603.6a)
def flickered_boa(stolen_by: str = "P2", keep_old: bool = False, **returned) -> Transition:
    """"Exile target permanent, then return it to the battlefield under its owner's control": P2 controls P1's
    battered River Boa (3/2, tapped, 1 damage, a shield). The card returns as the new object ``b2`` (CR 400.7)
    under its owner P1's control (610.3c), summoning sick (302.6), printed 2/1, untapped, nothing kept; the
    old object ``b`` is no object of the game any more."""
    before = observation({"b": boa(controller=stolen_by, **BATTERED_BOA)})
    new = boa(**{"summoning_sick": True, **returned})
    after = step(before, {"b": ({**before["objects"]["b"], **LEFT, "zone": "exile", "controller": "P1",
                                 "power": 2, "toughness": 1} if keep_old else None), "b2": new},
                 [zc("b", "battlefield", "exile", FLICKER_CAUSE),
                  zc("b2", "exile", "battlefield", FLICKER_CAUSE, previous="b")])
    return Transition(before, flicker(), after)


def flicker_not_returned() -> Transition:
    """Broken CR 610.3c: the flickered Bears is exiled and never comes back (no object ``b2``)."""
    before = observation({"b": bears()})
    after = step(before, {"b": {"zone": "exile"}}, [zc("b", "battlefield", "exile", FLICKER_CAUSE)])
    return Transition(before, flicker(), after)


def flickered_token(returned: bool = False) -> Transition:
    """CR 111.8: a token that left the battlefield can't come back; it ceases to exist in exile (704.5d), its
    move logged before it ceases (111.7). Broken: it comes back as ``b2``."""
    before = observation({"b": bears(token=True)})
    log = [zc("b", "battlefield", "exile", FLICKER_CAUSE)]
    if returned:
        log.append(zc("b2", "exile", "battlefield", FLICKER_CAUSE, previous="b"))
        changes = {"b": None, "b2": bears(token=True, summoning_sick=True)}
    else:
        log.append(zc("b", "exile", None, TOKEN_SBA))
        changes = {"b": None}
    return Transition(before, flicker(), step(before, changes, log))


def cloudshift(returns_under: str | None = "P1") -> Transition:
    """P1 controls P2's Grizzly Bears and casts Cloudshift at it: "return that card to the battlefield under
    your control" is the exception 610.3c allows ("unless otherwise specified"): the new object ``b2`` is
    P2's card under P1's control, summoning sick (302.6)."""
    before = observation({"b": bears(owner="P2", controller="P1")})
    exiled = zc("b", "battlefield", "exile", {"event": "flicker", "by": "Cloudshift"})
    if returns_under is None:  # broken CR 610.3c: exiled, never returned
        after = step(before, {"b": {"zone": "exile", "controller": "P2"}}, [exiled])
    else:
        after = step(before, {"b": None, "b2": bears(owner="P2", controller=returns_under, summoning_sick=True)},
                     [exiled, zc("b2", "exile", "battlefield", {"event": "flicker", "by": "Cloudshift"}, previous="b")])
    return Transition(before, {"type": "cast", "card": "Cloudshift", "controller": "P1", "targets": ["b"]}, after)


def visionary_flickered(triggered: bool = True) -> Transition:
    """CR 603.6a: Elvish Visionary returns as the new object ``v2``, so its "When ~ enters, draw a card"
    triggers (of ``v2``, controlled by P1) and, with no stack, resolves: P1 draws ``l1``."""
    before = observation({"v": card("Elvish Visionary", types=["Creature"], subtypes=["Elf", "Shaman"],
                                    colors=["G"], power=1, toughness=1),
                          "l1": bears(zone="library")})
    new = {**before["objects"]["v"], "summoning_sick": True}
    log = [zc("v", "battlefield", "exile", FLICKER_CAUSE), zc("v2", "exile", "battlefield", FLICKER_CAUSE,
                                                              previous="v")]
    changes = {"v": None, "v2": new}
    if triggered:
        log += [{"kind": "trigger", "source": "v2", "ability": "enters", "controller": "P1"},
                zc("l1", "library", "hand", {"event": "draw", "by": "v2"})]
        changes["l1"] = {"zone": "hand"}
    return Transition(before, flicker("v", "v2"), step(before, changes, log))


# ---------------------------------------------------------------- what stays behind (CR 704.5m, 704.5n)
VANISHED: dict = {}  # the Aura is no object after the event (a card never ceases to exist, CR 400.7)


def umbra_left_behind(event: dict = EXILE, aura_fields: dict | None = None, graveyard_of: str = "P2",
                      log: list | None = None) -> Transition:
    """P1's Grizzly Bears wears P2's Hyena Umbra (3/3, first strike). The Bears leave the battlefield: the
    Aura is attached to nothing (the card that returns from a flicker is a new object, 400.7), so it goes to
    its owner P2's graveyard as a state-based action (704.5m, 303.4c). Umbra armor replaces destruction
    only (702.89a): no replacement."""
    before = observation({"b": bears(power=3, toughness=3, keywords=["first strike"]), "h": hyena_umbra(owner="P2")})
    kind = event["type"]
    if kind == "flicker":
        changes = {"b": None, "b2": bears(summoning_sick=True)}
        moved = [zc("b", "battlefield", "exile", FLICKER_CAUSE),
                 zc("b2", "exile", "battlefield", FLICKER_CAUSE, previous="b")]
    else:
        zone, cause = ("exile", EXILE_CAUSE) if kind == "exile" else ("hand", BOUNCE_CAUSE)
        changes = {"b": {**LEFT, "zone": zone, "power": 2, "toughness": 2, "keywords": []}}
        moved = [zc("b", "battlefield", zone, cause)]
    changes["h"] = {**LEFT, "zone": "graveyard"} if aura_fields is None else \
        (None if aura_fields is VANISHED else aura_fields)
    default_log = moved + ([zc("h", "battlefield", "graveyard", AURA_SBA)]
                           if (changes["h"] or {}).get("zone") == "graveyard" else [])
    after = step(before, changes, default_log if log is None else moved + log)
    if graveyard_of != "P2" and changes["h"] and changes["h"].get("zone") == "graveyard":
        _relist(after, "h", "graveyard", "P2", graveyard_of)
    return Transition(before, event, after)


def sword_left_behind(event: dict = BOUNCE, sword_fields: dict | None = None) -> Transition:
    """Sword of the Meek equips P1's Grizzly Bears (3/4). The Bears leave the battlefield: the Equipment
    stays on the battlefield and becomes unattached (704.5n, 301.5c: "becomes unattached from that permanent
    but remains on the battlefield"), not attached to the new object a flicker returns (400.7)."""
    before = observation({"b": bears(power=3, toughness=4),
                          "s": card("Sword of the Meek", types=["Artifact"], subtypes=["Equipment"], attached_to="b")})
    if event["type"] == "flicker":
        changes = {"b": None, "b2": bears(summoning_sick=True)}
        log = [zc("b", "battlefield", "exile", FLICKER_CAUSE),
               zc("b2", "exile", "battlefield", FLICKER_CAUSE, previous="b")]
    else:
        zone, cause = ("exile", EXILE_CAUSE) if event["type"] == "exile" else ("hand", BOUNCE_CAUSE)
        changes = {"b": {**LEFT, "zone": zone, "power": 2, "toughness": 2}}
        log = [zc("b", "battlefield", zone, cause)]
    changes["s"] = {"attached_to": None} if sword_fields is None else sword_fields
    if sword_fields is None:
        log.append({"kind": "unattached", "object": "s", "rule": "704.5n"})
    return Transition(before, event, step(before, changes, log))


def token_exiled(order: str = "moved then ceased") -> Transition:
    """CR 111.7, 704.5d: an exiled Grizzly Bears token goes to exile (its zone change, so that abilities
    trigger on it, 603.6c) and then ceases to exist: no object of the game after the event."""
    before = observation({"b": bears(token=True)})
    moved, ceased = zc("b", "battlefield", "exile", EXILE_CAUSE), zc("b", "exile", None, TOKEN_SBA)
    if order == "alive in exile":
        return Transition(before, EXILE, step(before, {"b": {"zone": "exile"}}, [moved]))
    log = {"moved then ceased": [moved, ceased], "ceased then moved": [ceased, moved],
           "never moved": [zc("b", "battlefield", None, TOKEN_SBA)]}[order]
    return Transition(before, EXILE, step(before, {"b": None}, log))


# ---------------------------------------------------------------- not destruction (CR 702.89a, 700.4)
def walker_exiled(died: bool = False) -> Transition:
    """CR 700.4, 603.6c: Hangarback Walker (two +1/+1 counters, 2/2) is exiled, not put into a graveyard: it
    doesn't die, so "When Hangarback Walker dies" doesn't trigger and no Thopter is made. Broken: it
    triggers and makes two Thopters."""
    before = observation({"w": card("Hangarback Walker", types=["Artifact", "Creature"], subtypes=["Construct"],
                                    counters={"+1/+1": 2}, power=2, toughness=2)})
    changes = {"w": {**LEFT, "zone": "exile", "power": 0, "toughness": 0}}
    log = [zc("w", "battlefield", "exile", {"event": "exile", "by": "exile effect"})]
    if died:
        log.append({"kind": "trigger", "source": "w", "ability": "dies", "controller": "P1"})
        for i in (1, 2):
            changes[f"w.thopter{i}"] = card("Thopter Token", token=True, types=["Artifact", "Creature"],
                                            subtypes=["Thopter"], keywords=["flying"], power=1, toughness=1,
                                            summoning_sick=True)
            log.append(zc(f"w.thopter{i}", None, "battlefield", {"event": "create_token", "by": "w"}))
    return Transition(before, {"type": "exile", "object": "w"}, step(before, changes, log))


def umbra_armor_replaced_exile() -> Transition:
    """Broken CR 702.89a: umbra armor ("If enchanted creature would be destroyed, instead ...") replaced an
    exile: the Bears stay, the Aura is destroyed."""
    t = umbra_left_behind()
    after = step(t.before, {"b": {}, "h": {**LEFT, "zone": "graveyard"}},
                 [{"kind": "replacement", "effect": "umbra armor", "source": "h", "affected": "b"},
                  zc("h", "battlefield", "graveyard", {"event": "destroy", "by": "exile effect"})])
    return Transition(t.before, EXILE, after)


# ---------------------------------------------------------------- leaves the battlefield (CR 603.6c)
def thragtusk_left(event: dict = {"type": "exile", "object": "t"}, triggered: bool = True,  # noqa: B006
                   owner: str = "P1") -> Transition:
    """CR 603.6c: "When Thragtusk leaves the battlefield, create a 3/3 green Beast creature token." triggers
    whatever zone it goes to (exile here; a hand too), controlled by the player who controlled Thragtusk
    (603.3a, P1, looking back in time, 603.10a); with no stack it resolves: P1 gets the Beast."""
    before = observation({"t": card("Thragtusk", owner=owner, controller="P1", types=["Creature"],
                                    subtypes=["Beast"], colors=["G"], power=5, toughness=3)})
    zone, cause = ("exile", EXILE_CAUSE) if event["type"] == "exile" else ("hand", BOUNCE_CAUSE)
    changes = {"t": {**LEFT, "zone": zone, "controller": owner}}
    log = [zc("t", "battlefield", zone, cause)]
    if triggered:
        log += [{"kind": "trigger", "source": "t", "ability": "leaves the battlefield", "controller": "P1"},
                zc("t.token1", None, "battlefield", {"event": "create_token", "by": "t"})]
        changes["t.token1"] = card("Beast Token", token=True, types=["Creature"], subtypes=["Beast"], colors=["G"],
                                   power=3, toughness=3, summoning_sick=True)
    return Transition(before, event, step(before, changes, log))


#: invariant -> (holds, broken, a word of the failure message)
CASES = {
    # CR 400.3, 108.3: the owner's hand, not the controller's
    "zones.moved_to_its_owners_zone": (bounce_stolen, lambda: bounce_stolen(hand_of="P2"), "not its owner's"),
    # CR 400.7: no counters, damage, shield, tapped status in exile
    "zones.left_with_no_memory": (boa_moved, lambda: boa_moved(counters={"+1/+1": 1}), "'counters'"),
    # CR 610.3c: returns under its owner's control, not the controller's who stole it
    "zones.flicker_returns_a_new_object": (flickered_boa, lambda: flickered_boa(controller="P2"), "610.3c"),
    # CR 400.7: the returned River Boa keeps no counter of the old object
    "zones.returned_object_remembers_nothing": (flickered_boa, lambda: flickered_boa(counters={"+1/+1": 1},
                                                                                     power=3, toughness=2),
                                                "counters"),
    # CR 302.6: the new object hasn't been controlled continuously since the turn began
    "zones.returned_creature_is_summoning_sick": (flickered_boa, lambda: flickered_boa(summoning_sick=False),
                                                  "302.6"),
    # CR 603.6a: a new object entered, its enters ability triggers
    "zones.returned_card_enters_abilities_trigger": (visionary_flickered, lambda: visionary_flickered(False),
                                                     "603.6a"),
    # CR 704.5m, 303.4c: the Aura goes to its owner's graveyard, not onto the new object
    "zones.auras_left_behind_go_to_the_graveyard": (
        umbra_left_behind, lambda: umbra_left_behind(flicker(), aura_fields={"attached_to": "b2"}, log=[]), "704.5m"),
    # CR 704.5n, 301.5c: the Equipment stays, unattached, not on the new object
    "zones.equipment_left_behind_stays_unattached": (
        sword_left_behind, lambda: sword_left_behind(flicker(), sword_fields={"attached_to": "b2"}),
        "must be unattached"),
    # CR 111.7, 704.5d: the token ceases to exist after its move
    "zones.token_ceases_to_exist": (token_exiled, lambda: token_exiled("alive in exile"), "still exists"),
    # CR 702.89a: umbra armor replaces destruction only
    "zones.not_destruction": (walker_exiled, umbra_armor_replaced_exile, "702.89a"),
    # CR 603.6c: leaves-the-battlefield abilities trigger whatever the zone
    "zones.leaves_the_battlefield_abilities_trigger": (thragtusk_left, lambda: thragtusk_left(triggered=False),
                                                       "603.6c"),
}
MORE_HOLDS = [
    ("zones.moved_to_its_owners_zone", exiled_to),  # CR 701.11a: its owner's exile
    ("zones.left_with_no_memory", lambda: boa_moved(BOUNCE)),  # CR 400.7: in a hand too
    ("zones.flicker_returns_a_new_object", flickered_token),  # CR 111.8: a token doesn't return
    ("zones.flicker_returns_a_new_object", cloudshift),  # CR 610.3c: "under your control", the caster's
    ("zones.returned_creature_is_summoning_sick", cloudshift),  # CR 302.6: the caster hasn't controlled b2
    ("zones.auras_left_behind_go_to_the_graveyard", lambda: umbra_left_behind(BOUNCE)),  # CR 704.5m
    ("zones.auras_left_behind_go_to_the_graveyard", lambda: umbra_left_behind(flicker())),  # CR 704.5m, 400.7
    ("zones.equipment_left_behind_stays_unattached", lambda: sword_left_behind(EXILE)),  # CR 704.5n
    ("zones.equipment_left_behind_stays_unattached", lambda: sword_left_behind(flicker())),  # CR 704.5n, 400.7
    ("zones.token_ceases_to_exist", lambda: flickered_token()),  # CR 111.8, 704.5d: stays in exile, ceases
    ("zones.not_destruction", umbra_left_behind),  # CR 702.89a: the exiled Bears' umbra armor does nothing
    ("zones.leaves_the_battlefield_abilities_trigger",  # CR 603.6c, 603.3a: P2's Thragtusk P1 controls, bounced
     lambda: thragtusk_left({"type": "return_to_hand", "object": "t"}, owner="P2")),
]
MORE_BROKEN = [  # each a distinct bug the invariant is for; the rule in the builder's docstring or here
    ("zones.moved_to_its_owners_zone", lambda: exiled_to("graveyard"), "should be in its owner's exile"),  # 701.11a
    ("zones.moved_to_its_owners_zone", exiled_card_vanished, "vanished"),  # 400.7
    ("zones.moved_to_its_owners_zone", exiled_card_changes_owner, "108.3"),
    ("zones.moved_to_its_owners_zone", flicker_left_on_the_battlefield, "still on the battlefield"),  # 701.11a
    ("zones.left_with_no_memory", lambda: boa_moved(BOUNCE, regeneration_shields=1),  # 400.7, 701.15a
     "'regeneration_shields'"),
    ("zones.left_with_no_memory", lambda: boa_moved(tapped=True), "'tapped'"),  # 400.7
    ("zones.left_with_no_memory", lambda: boa_moved(damage=1), "'damage'"),  # 400.7
    ("zones.flicker_returns_a_new_object", lambda: flickered_boa(keep_old=True), "one card, two objects"),  # 400.7
    ("zones.flicker_returns_a_new_object", flicker_not_returned, "no object b2"),  # 400.7, 610.3c
    ("zones.flicker_returns_a_new_object", lambda: cloudshift(returns_under=None), "not returned"),  # 610.3c
    ("zones.flicker_returns_a_new_object", lambda: flickered_token(returned=True), "111.8"),
    ("zones.flicker_returns_a_new_object", lambda: cloudshift(returns_under="P2"), "610.3c"),  # "under your control"
    ("zones.returned_object_remembers_nothing", lambda: flickered_boa(regeneration_shields=1),  # 400.7, 701.15a
     "regeneration shield"),
    ("zones.returned_object_remembers_nothing", lambda: flickered_boa(tapped=True), "tapped"),  # 400.7
    ("zones.returned_object_remembers_nothing", lambda: flickered_boa(damage=1), "damage 1"),  # 400.7
    ("zones.returned_object_remembers_nothing", lambda: flickered_boa(combat="blocking"), "combat status"),  # 506.4
    ("zones.auras_left_behind_go_to_the_graveyard", lambda: umbra_left_behind(graveyard_of="P1"),  # 704.5m, 400.3
     "P2's graveyard"),
    ("zones.auras_left_behind_go_to_the_graveyard",  # 704.5m: left on the battlefield, attached to nothing
     lambda: umbra_left_behind(BOUNCE, aura_fields={"attached_to": None}, log=[]), "must be in P2's graveyard"),
    ("zones.auras_left_behind_go_to_the_graveyard", lambda: umbra_left_behind(aura_fields=VANISHED), "vanished"),
    ("zones.equipment_left_behind_stays_unattached",  # 704.5n: "It remains on the battlefield."
     lambda: sword_left_behind(BOUNCE, sword_fields={"zone": "graveyard", "attached_to": None}),
     "stays on the battlefield"),
    ("zones.token_ceases_to_exist", lambda: token_exiled("ceased then moved"), "111.7"),  # moves first, 603.6c
    ("zones.token_ceases_to_exist", lambda: token_exiled("never moved"), "111.7"),  # ceased on the battlefield
    ("zones.not_destruction", lambda: walker_exiled(died=True), "700.4"),  # exiled, it didn't die
]
