"""Cases of the stack and priority invariants (``invariants/stack.py``, capability ``stack``) for
tests/test_invariants.py: observations of a game whose board says ``"stack": true`` (they carry ``stack``,
bottom to top, and ``priority``), written by hand; a correct step and a broken one each, the expected
values worked out from the rules cited (nothing is run).

Two players, P1 active (``priority.active_player``) unless said otherwise. Cards (Oracle text): Grizzly
Bears 2/2; Murder "Destroy target creature."; Shock "Shock deals 2 damage to any target."; Giant Growth
"Target creature gets +3/+3 until end of turn."; Breathe Your Last "Destroy target creature or
planeswalker. You gain 1 life for each of its colors."; Cackling Counterpart "Create a token that's a copy
of target creature you control."; Wrath of God "Destroy all creatures. They can't be regenerated.";
Hangarback Walker 0/0 "When Hangarback Walker dies, create a 1/1 colorless Thopter artifact creature token
with flying for each +1/+1 counter on Hangarback Walker."; Penumbra Umbra "When Penumbra Umbra is put into
a graveyard from the battlefield, create a token that's a copy of enchanted creature, except the token is
black."
"""

from __future__ import annotations

import copy

from harness.protocol import ScenarioRun, Transition
from tests.observations import card, observation, step

GRAVEYARD = {"zone": "graveyard", "attached_to": None, "damage": 0, "tapped": False, "combat": None,
             "counters": {}, "summoning_sick": False}


def pass_(player: str) -> dict:
    return {"type": "pass_priority", "player": player}


def spell(oid: str, name: str, controller: str = "P1", targets=()) -> dict:
    """A spell's ``stack`` entry (harness.protocol "The stack")."""
    return {"id": oid, "kind": "spell", "card": name, "source": None, "controller": controller,
            "targets": list(targets), "trigger": None, "ability": None}


def triggered(source: str, controller: str, trigger: str, targets=()) -> dict:
    """A triggered ability's ``stack`` entry, id ``<source id>.ability1``."""
    return {"id": f"{source}.ability1", "kind": "ability", "card": None, "source": source, "controller": controller,
            "targets": list(targets), "trigger": trigger, "ability": None}


def on_stack(obs: dict, stack=(), holder: str = "P1", passed=(), active: str = "P1") -> dict:
    """``obs`` of a stack game: its ``stack`` (bottom to top) and who holds priority, who passed."""
    obs["stack"] = copy.deepcopy(list(stack))
    obs["priority"] = {"player": holder, "passed": list(passed), "active_player": active}
    return obs


def resolved(oid: str) -> dict:
    return {"kind": "resolved", "object": oid}


def zc(oid: str, frm, to, **cause) -> dict:
    return {"kind": "zone_change", "object": oid, "from": frm, "to": to, "cause": cause}


def put_on_stack(entry: dict) -> dict:
    return {"kind": "put_on_stack", "object": entry["id"], "stack_kind": entry["kind"],
            "controller": entry["controller"], "targets": entry["targets"]}


def bears(**fields) -> dict:
    return card("Grizzly Bears", **{"owner": "P2", "types": ["Creature"], "subtypes": ["Bear"], "colors": ["G"],
                                    "power": 2, "toughness": 2, **fields})


def instant(name: str, owner: str = "P1", zone: str = "graveyard", **fields) -> dict:
    """An instant or sorcery card off the stack (CR 608.2n)."""
    types = ["Sorcery"] if name == "Wrath of God" else ["Instant"]
    return card(name, owner=owner, zone=zone, types=types, **fields)


MURDER = spell("m", "Murder", targets=["bears"])


# ---------------------------------------------------------------- casting (CR 601.2a, 601.2c, 117.3c)
def murder_cast(holder: str = "P1", targets=("bears",), resolves_at_once: bool = False) -> Transition:
    """P1, holding priority with the stack empty, casts Murder at P2's Grizzly Bears: the spell goes on the
    stack with its target (601.2a, 601.2c) and does nothing yet; its caster P1 receives priority (117.3c)."""
    before = on_stack(observation({"bears": bears()}))
    event = {"type": "cast", "card": "Murder", "controller": "P1", "targets": ["bears"], "id": "m"}
    if resolves_at_once:  # broken: no stack, Murder destroys the Bears at once and is in the graveyard
        after = on_stack(step(before, {"bears": GRAVEYARD, "m": instant("Murder")},
                              [zc("bears", "battlefield", "graveyard", event="destroy", by="Murder")]))
        return Transition(before, event, after)
    entry = spell("m", "Murder", targets=targets)
    after = on_stack(step(before, {}, [put_on_stack(entry)]), [entry], holder=holder)
    return Transition(before, event, after)


def growth_in_response() -> Transition:
    """P1's Shock at the Bears waits; P1 passed, and P2, holding priority, casts Giant Growth at them: on top
    of Shock (405.2), P2 receives priority and the succession of passes starts again (117.3c, 117.4)."""
    shock = spell("s", "Shock", targets=["bears"])
    growth = spell("g", "Giant Growth", "P2", ["bears"])
    before = on_stack(observation({"bears": bears()}), [shock], holder="P2", passed=["P1"])
    after = on_stack(step(before, {}, [put_on_stack(growth)]), [shock, growth], holder="P2")
    event = {"type": "cast", "card": "Giant Growth", "controller": "P2", "targets": ["bears"], "id": "g"}
    return Transition(before, event, after)


# ---------------------------------------------------------------- passing (CR 117.3d, 117.4, 405.5, 117.3b)
def murder_waits(passer: str = "P1", resolves: bool = False, passed_after=("P1",)) -> Transition:
    """Murder waits on the stack; P1, holding priority, passes: not every player has passed yet, so nothing
    resolves (117.4); P2 receives priority (117.3d), P1 having passed."""
    before = on_stack(observation({"bears": bears()}), [MURDER])
    if resolves:  # broken CR 117.4: Murder resolves on the first pass
        after = on_stack(step(before, {"bears": GRAVEYARD, "m": instant("Murder")}, [
            resolved("m"), zc("bears", "battlefield", "graveyard", event="destroy", by="Murder"),
            zc("m", "stack", "graveyard", event="resolution", rule="608.2n")]))
    else:
        after = on_stack(step(before, {}), [MURDER], holder="P2", passed=passed_after)
    return Transition(before, pass_(passer), after)


def murder_resolves(zone: str = "graveyard", owner: str = "P1", holder: str = "P1", stays: bool = False,
                    vanishes: bool = False) -> Transition:
    """P1 passed; P2 passes too: every player passed in succession, so Murder, the top object, resolves
    (117.4, 405.5): P2's Bears go to their owner's graveyard, then Murder to its owner P1's graveyard
    (608.2n). The active player P1 receives priority (117.3b)."""
    before = on_stack(observation({"bears": bears()}), [MURDER], holder="P2", passed=["P1"])
    if stays:  # broken CR 405.5: every player passed, the top object is still there
        return Transition(before, pass_("P2"), on_stack(step(before, {}), [MURDER]))
    changes = {"bears": GRAVEYARD} if vanishes else {"bears": GRAVEYARD, "m": instant("Murder", owner=owner,
                                                                                       zone=zone)}
    after = on_stack(step(before, changes, [
        resolved("m"), zc("bears", "battlefield", "graveyard", event="destroy", by="Murder"),
        zc("m", "stack", zone, event="resolution", rule="608.2n")]), holder=holder)
    return Transition(before, pass_("P2"), after)


def bears_spell_resolves(zone: str = "battlefield") -> Transition:
    """A permanent spell that resolves becomes a permanent under its controller's control (608.3a): P1's
    Grizzly Bears spell ``gb`` is P1's summoning sick Bears (302.6)."""
    entry = spell("gb", "Grizzly Bears")
    before = on_stack(observation({}), [entry], holder="P2", passed=["P1"])
    new = bears(owner="P1", zone=zone, summoning_sick=zone == "battlefield")
    after = on_stack(step(before, {"gb": new}, [resolved("gb"), zc("gb", "stack", zone, event="cast", by="P1")]))
    return Transition(before, pass_("P2"), after)


DARKNESS = spell("aura", "Cast into Darkness", targets=["bears"])


def darkness_resolves_and_dies(first_move=("stack", "battlefield")) -> Transition:
    """P1's Cast into Darkness ("Enchant creature / Enchanted creature gets -2/-0 and can't block.") targets
    P2's Grizzly Bears, whose power and toughness an earlier switch_pt switched (2/2 either way). P1 passed,
    P2 passes: the Aura spell resolves (117.4), becomes a permanent and enters attached to the Bears (608.3,
    608.3c), the card keeping its id ``aura`` (601.2a: it is the card that moved to the stack). The Bears are
    then 2 - 2 = 0 power (layer 7c) switched (layer 7d, 613.4c-d): 2/0, put into their owner's graveyard
    (704.5f); the Aura, attached to nothing, follows it into P1's graveyard (704.5m, 704.3). ``aura`` was on
    the stack, not among the objects, before the pass and is a card in a graveyard after: its first zone
    change of the step (from the stack) brings it into the objects, its last one is from the battlefield.
    ``first_move`` (from, to) is the first zone change the log gives it; without one (None), only the last."""
    before = on_stack(observation({"bears": bears()}), [DARKNESS], holder="P2", passed=["P1"])
    darkness = card("Cast into Darkness", zone="graveyard", types=["Enchantment"], subtypes=["Aura"], colors=["B"])
    arrival = [] if first_move is None else [zc("aura", *first_move, event="cast", by="P1")]
    after = on_stack(step(before, {"bears": GRAVEYARD, "aura": darkness}, [
        resolved("aura"), *arrival,
        zc("bears", "battlefield", "graveyard", event="state_based_action", rule="704.5f"),
        zc("aura", "battlefield", "graveyard", event="state_based_action", rule="704.5m")]))
    return Transition(before, pass_("P2"), after)


def sacrificed_between_passes(passed_after=()) -> Transition:
    """An event between the passes (the Bears are sacrificed while Breathe Your Last waits): the succession
    of passes starts again (117.4: "without taking any actions in between"); the stack doesn't change."""
    entry = spell("b", "Breathe Your Last", targets=["bears"])
    before = on_stack(observation({"bears": bears()}), [entry], holder="P2", passed=["P1"])
    after = on_stack(step(before, {"bears": GRAVEYARD}, [zc("bears", "battlefield", "graveyard", event="sacrifice",
                                                            by="P2")]),
                     [entry], holder="P2", passed=passed_after)
    return Transition(before, {"type": "sacrifice", "object": "bears"}, after)


def sacrifice_removes_the_spell() -> Transition:
    """Broken CR 117.4, 405.2: a sacrifice, not a pass, takes Breathe Your Last off the stack."""
    t = sacrificed_between_passes()
    t.after["stack"] = []
    return t


# ---------------------------------------------------------------- last in, first out (CR 405.5, 608.1)
SHOCK = spell("s", "Shock", targets=["bears"])
GROWTH = spell("g", "Giant Growth", "P2", ["bears"])


def growth_resolves_first(fifo: bool = False) -> Transition:
    """Shock (P1's) then Giant Growth (P2's) at the Bears; P2 passed, P1 passes: the top one, Giant Growth,
    resolves first (405.5: last in, first out): the Bears are 5/5 until end of turn, Shock still waits, and
    Giant Growth is in its owner P2's graveyard (608.2n). Broken: Shock resolves first and its 2 damage
    destroys the 2/2 Bears (704.5g)."""
    before = on_stack(observation({"bears": bears()}), [SHOCK, GROWTH], holder="P1", passed=["P2"])
    if fifo:
        after = on_stack(step(before, {"bears": GRAVEYARD, "s": instant("Shock")}, [
            resolved("s"), {"kind": "damage", "source": "Shock", "target": "bears", "amount": 2, "deathtouch": False},
            zc("s", "stack", "graveyard", event="resolution", rule="608.2n"),
            zc("bears", "battlefield", "graveyard", event="destroy", by="704.5g")]), [GROWTH])
    else:
        after = on_stack(step(before, {"bears": {"power": 5, "toughness": 5}, "g": instant("Giant Growth", "P2")}, [
            resolved("g"), zc("g", "stack", "graveyard", event="resolution", rule="608.2n")]), [SHOCK])
    return Transition(before, pass_("P1"), after)


def both_leave_at_once() -> Transition:
    """Broken CR 405.5: both spells leave the stack on one resolution."""
    t = growth_resolves_first()
    t.after["objects"]["s"] = instant("Shock")
    t.after["zones"]["graveyard"]["P1"].append("s")
    t.after["stack"] = []
    return t


def below_the_top_reordered() -> Transition:
    """Broken CR 405.5: Giant Growth resolves, and the two Shocks below it swap places."""
    s1, s2 = SHOCK, spell("s2", "Shock", targets=["P2"])
    before = on_stack(observation({"bears": bears()}), [s1, s2, GROWTH], holder="P1", passed=["P2"])
    after = on_stack(step(before, {"bears": {"power": 5, "toughness": 5}, "g": instant("Giant Growth", "P2")}, [
        resolved("g"), zc("g", "stack", "graveyard", event="resolution", rule="608.2n")]), [s2, s1])
    return Transition(before, pass_("P1"), after)


# ---------------------------------------------------------------- illegal targets (CR 608.2b, 400.7)
def breathe_fizzles(p1_life: int = 20) -> Transition:
    """Breathe Your Last's only target, the Bears, was sacrificed in response: as it would resolve its target
    is illegal (608.2b: no longer in the zone it was in), so it doesn't resolve: P1 gains no life (1 had it
    resolved: green), and the card goes to its owner P1's graveyard."""
    entry = spell("b", "Breathe Your Last", targets=["bears"])
    before = on_stack(observation({"bears": bears(**GRAVEYARD)}), [entry], holder="P2", passed=["P1"])
    log = [{"kind": "removed_from_stack", "object": "b", "reason": "all targets illegal"},
           zc("b", "stack", "graveyard", event="resolution", rule="608.2b")]
    if p1_life != 20:
        log.insert(1, {"kind": "life_gained", "player": "P1", "amount": p1_life - 20})
    after = on_stack(step(before, {"b": instant("Breathe Your Last")}, log, life={"P1": p1_life, "P2": 20}))
    return Transition(before, pass_("P2"), after)


def murder_follows_a_flickered_card() -> Transition:
    """Broken CR 400.7, 608.2b: the Bears Murder targeted were flickered in response and came back as the new
    object ``b2``; Murder's target is gone, yet it destroys ``b2``."""
    before = on_stack(observation({"b2": bears(summoning_sick=True)}), [MURDER], holder="P2", passed=["P1"])
    after = on_stack(step(before, {"b2": GRAVEYARD, "m": instant("Murder")}, [
        resolved("m"), zc("b2", "battlefield", "graveyard", event="destroy", by="Murder"),
        zc("m", "stack", "graveyard", event="resolution", rule="608.2n")]))
    return Transition(before, pass_("P2"), after)


def counterpart_of_a_creature_gone() -> Transition:
    """Broken CR 608.2b: Cackling Counterpart's target (P1's Bears) was sacrificed in response; the spell
    still makes a copy of it from last known information."""
    entry = spell("c", "Cackling Counterpart", targets=["mine"])
    before = on_stack(observation({"mine": bears(owner="P1", **GRAVEYARD)}), [entry], holder="P2", passed=["P1"])
    after = on_stack(step(before, {"c": instant("Cackling Counterpart"), "c.token1": bears(
        owner="P1", token=True, summoning_sick=True)}, [
        resolved("c"), zc("c.token1", None, "battlefield", event="create_token", by="Cackling Counterpart",
                          copy_of="mine"),
        zc("c", "stack", "graveyard", event="resolution", rule="608.2n")]))
    return Transition(before, pass_("P2"), after)


# ---------------------------------------------------------------- APNAP (CR 603.3b, 101.4)
def walker(owner: str, counters: int, **fields) -> dict:
    return card("Hangarback Walker", **{"owner": owner, "types": ["Artifact", "Creature"], "subtypes": ["Construct"],
                                        "counters": {"+1/+1": counters}, "power": counters, "toughness": counters,
                                        **fields})


def wrath_kills_walkers(order=("k0", "k1"), active: str = "P1") -> Transition:
    """Wrath of God resolves and destroys P1's Hangarback Walker ``k0`` and P2's ``k1``; both dies abilities
    trigger and are put on the stack in APNAP order (603.3b, 101.4): the active player's first, so the
    nonactive player's is on top and resolves first. The active player receives priority (117.3b)."""
    other = "P2" if active == "P1" else "P1"
    wrath = spell("w", "Wrath of God", active)
    before = on_stack(observation({"k0": walker("P1", 1), "k1": walker("P2", 2)}), [wrath], holder=other,
                      passed=[active], active=active)
    abilities = {"k0": triggered("k0", "P1", "dies"), "k1": triggered("k1", "P2", "dies")}
    log = [resolved("w"), zc("k0", "battlefield", "graveyard", event="destroy", by="Wrath of God"),
           zc("k1", "battlefield", "graveyard", event="destroy", by="Wrath of God"),
           zc("w", "stack", "graveyard", event="resolution", rule="608.2n"),
           {"kind": "trigger", "source": "k0", "ability": "dies", "controller": "P1"},
           {"kind": "trigger", "source": "k1", "ability": "dies", "controller": "P2"},
           *(put_on_stack(abilities[k]) for k in order)]
    after = on_stack(step(before, {"k0": {**GRAVEYARD, "power": 0, "toughness": 0},
                                   "k1": {**GRAVEYARD, "power": 0, "toughness": 0},
                                   "w": instant("Wrath of God", active)}, log),
                     [abilities[k] for k in order], holder=active, active=active)
    return Transition(before, pass_(other), after)


# ---------------------------------------------------------------- last known information (CR 603.10a, 608.2h)
PENUMBRA_TRIGGER = triggered("pen", "P1", "put into a graveyard")


def penumbra_resolves(tokens=("B",)) -> Transition:
    """Penumbra Umbra's ruling (2024-11-08): "If the enchanted creature is no longer on the battlefield when
    Penumbra Umbra's second ability resolves, use its copiable values as it last existed on the
    battlefield." Umbra armor destroyed the Aura instead of P1's Grizzly Bears (702.89a), the Bears were
    then sacrificed; the ability resolves: one token copy of Grizzly Bears, black (707.9b), P1's."""
    before = on_stack(observation({
        "bears": bears(owner="P1", **GRAVEYARD),
        "pen": card("Penumbra Umbra", zone="graveyard", types=["Enchantment"], subtypes=["Aura"], colors=["G"],
                    keywords=["umbra armor"])}), [PENUMBRA_TRIGGER], holder="P2", passed=["P1"])
    changes, log = {}, [resolved("pen.ability1")]
    for i, color in enumerate(tokens):
        oid = "pen.token" if i == 0 else f"pen.token{i + 1}"
        changes[oid] = bears(owner="P1", token=True, summoning_sick=True, colors=[color])
        log.append(zc(oid, None, "battlefield", event="create_token", by="pen"))
    return Transition(before, pass_("P2"), on_stack(step(before, changes, log)))


def walker_dies_then_resolves(thopters: int = 2) -> ScenarioRun:
    """A whole stack game: P1's Hangarback Walker with two +1/+1 counters (2/2) is destroyed; its dies ability
    waits on the stack while the card in the graveyard, a new object, has no counters (400.7); both players
    pass and it resolves: two Thopters, as many as the +1/+1 counters on the Walker as it last existed on the
    battlefield (603.10a, 608.2h). Broken: the count read from the card in the graveyard (0), or 1."""
    ability = triggered("k", "P1", "dies")
    o0 = on_stack(observation({"k": walker("P1", 2)}))
    o1 = on_stack(step(o0, {"k": {**GRAVEYARD, "power": 0, "toughness": 0}}, [
        zc("k", "battlefield", "graveyard", event="destroy", by="destroy effect"),
        {"kind": "trigger", "source": "k", "ability": "dies", "controller": "P1"}, put_on_stack(ability)]), [ability])
    o2 = on_stack(step(o1, {}), [ability], holder="P2", passed=["P1"])
    made = {f"k.thopter{i}": card("Thopter Token", token=True, types=["Artifact", "Creature"], subtypes=["Thopter"],
                                  keywords=["flying"], power=1, toughness=1, summoning_sick=True)
            for i in range(1, thopters + 1)}
    o3 = on_stack(step(o2, made, [resolved("k.ability1"), *(zc(oid, None, "battlefield", event="create_token",
                                                                 by="k") for oid in made)]))
    events = [{"type": "destroy", "targets": ["k"], "cant_be_regenerated": False}, pass_("P1"), pass_("P2")]
    observations = [o0, o1, o2, o3]
    return ScenarioRun(board={"stack": True}, events=events, observations=observations,
                       replay=lambda every_step=True: copy.deepcopy(observations if every_step else observations[-1:]))


#: invariant -> (holds, broken, a word of the failure message)
CASES = {
    # CR 117.3c: the caster receives priority after casting
    "stack.cast_puts_the_spell_on_the_stack": (murder_cast, lambda: murder_cast(holder="P2"), "117.3c"),
    # CR 608.2b: all targets illegal, the spell doesn't resolve (no life gained)
    "stack.illegal_targets_no_effect": (breathe_fizzles, lambda: breathe_fizzles(21), "players changed"),
    # CR 405.5: last in, first out
    "stack.last_in_first_out": (growth_resolves_first, lambda: growth_resolves_first(fifo=True), "only the top one"),
    # CR 603.10a, 608.2h, 707.9b and the ruling: one black copy, the creature having left
    "stack.penumbra_copies_as_it_last_existed": (penumbra_resolves, lambda: penumbra_resolves(()), "made 0 token"),
    # CR 117.4: one pass of two resolves nothing
    "stack.resolves_only_when_all_pass": (murder_waits, lambda: murder_waits(resolves=True), "must not change"),
    # CR 608.2n: an instant that resolved is in its owner's graveyard
    "stack.spell_leaves_to_its_zone": (murder_resolves, lambda: murder_resolves(zone="exile"),
                                       "expected its owner P1's graveyard"),
    # CR 603.10a, 608.2h: Thopters for the counters as the Walker last existed on the battlefield
    "stack.tokens_per_counter_as_it_last_existed": (walker_dies_then_resolves, lambda: walker_dies_then_resolves(0),
                                                    "had 2 +1/+1 counter(s)"),
    # CR 603.3b, 101.4: the active player's trigger goes on the stack first
    "stack.triggers_in_apnap_order": (wrath_kills_walkers, lambda: wrath_kills_walkers(("k1", "k0")), "603.3b"),
}
MORE_HOLDS = [
    ("stack.cast_puts_the_spell_on_the_stack", growth_in_response),  # CR 405.2, 117.3c: on top, P2 holds priority
    ("stack.resolves_only_when_all_pass", murder_resolves),  # CR 117.4, 117.3b: both passed, the top resolves
    ("stack.resolves_only_when_all_pass", sacrificed_between_passes),  # CR 117.4: an action restarts the passes
    ("stack.resolves_only_when_all_pass", growth_in_response),  # CR 405.2: a new object goes on top
    ("stack.last_in_first_out", murder_resolves),  # CR 405.5: the only object is the top one
    ("stack.spell_leaves_to_its_zone", bears_spell_resolves),  # CR 608.3a: a permanent spell becomes a permanent
    ("stack.spell_leaves_to_its_zone", breathe_fizzles),  # CR 608.2b: not resolving, still its owner's graveyard
    ("stack.triggers_in_apnap_order", lambda: wrath_kills_walkers(("k1", "k0"), active="P2")),  # P2 active: P2's first
    # CR 608.3c, 704.5m: an Aura spell that resolved and died at once was created, from the stack
    ("generic.objects_conserved", darkness_resolves_and_dies),
    ("stack.spell_leaves_to_its_zone", darkness_resolves_and_dies),  # 608.3: it entered, then left by 704.5m
]
MORE_BROKEN = [
    ("stack.cast_puts_the_spell_on_the_stack", lambda: murder_cast(resolves_at_once=True), "not the first new object"),
    ("stack.cast_puts_the_spell_on_the_stack", lambda: murder_cast(resolves_at_once=True), "among the objects"),
    ("stack.cast_puts_the_spell_on_the_stack", lambda: murder_cast(targets=()), "the cast was"),
    ("stack.resolves_only_when_all_pass", lambda: murder_waits(passer="P2"), "must be refused"),  # CR 117.3d
    ("stack.resolves_only_when_all_pass", lambda: murder_waits(passed_after=()), "players who passed"),
    ("stack.resolves_only_when_all_pass", lambda: murder_resolves(stays=True), "is still on it"),  # CR 405.5
    ("stack.resolves_only_when_all_pass", lambda: murder_resolves(holder="P2"), "117.3b"),
    ("stack.resolves_only_when_all_pass", lambda: sacrificed_between_passes(passed_after=("P1",)), "starts again"),
    ("stack.resolves_only_when_all_pass", sacrifice_removes_the_spell, "not a pass"),
    ("stack.last_in_first_out", both_leave_at_once, "only the top one"),
    ("stack.last_in_first_out", below_the_top_reordered, "below its top"),
    ("stack.illegal_targets_no_effect", murder_follows_a_flickered_card, "b2 (Grizzly Bears) changed"),
    ("stack.illegal_targets_no_effect", counterpart_of_a_creature_gone, "objects appeared"),
    ("stack.spell_leaves_to_its_zone", lambda: murder_resolves(vanishes=True), "no object of the game"),
    ("stack.spell_leaves_to_its_zone", lambda: murder_resolves(owner="P2"), "not by its caster"),  # CR 108.3
    ("stack.spell_leaves_to_its_zone", lambda: bears_spell_resolves("hand"), "permanent spell"),  # CR 608.3a
    ("stack.penumbra_copies_as_it_last_existed", lambda: penumbra_resolves(("G",)), "707.9b"),
    ("stack.penumbra_copies_as_it_last_existed", lambda: penumbra_resolves(("B", "B")), "made 2 token"),
    ("stack.tokens_per_counter_as_it_last_existed", lambda: walker_dies_then_resolves(1), "made 1 token"),
    ("stack.triggers_in_apnap_order", lambda: wrath_kills_walkers(active="P2"), "603.3b"),
    # CR 601.2a, 608.3c: the resolved Aura's move from the stack is missing, or it came from the hand
    ("generic.objects_conserved", lambda: darkness_resolves_and_dies(None), "aura (Cast into Darkness) appeared"),
    ("generic.objects_conserved", lambda: darkness_resolves_and_dies(("hand", "battlefield")),
     "appeared without being created"),
]
