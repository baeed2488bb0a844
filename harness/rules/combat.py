"""Rules for combat (capability ``combat``; CR 506-511): attackers and blockers declared, combat
damage steps, end of combat.

Boards of an engine that claims ``combat`` get, on two boards in three, a combat corner
(:func:`with_combat_corner`): creatures of both players, ids ``w<i>``, untapped and able to attack,
drawn mostly from the plan's creatures with a keyword that matters in combat (first strike, double
strike, trample, deathtouch, lifelink, vigilance, flying, reach, menace, defender, haste) or a
combat restriction, read from the card data (the curated pool's: Typhoid Rats; the umbra Auras on
the boards grant first strike, flying, reach, vigilance and lifelink; declared cards of the
database bring the rest). Events: ``declare_attackers`` (mostly creatures that may attack, read
from the board and the card data by :mod:`invariants.combat`; sometimes one that may not),
``declare_blockers`` (mostly legal blocks, two blockers for a creature with menace; sometimes an
illegal one), ``combat_damage``, ``end_of_combat``, and a whole combat in one rule. The damage
assignment choices (decider kind ``damage_assignment``) are drawn by the decider like any other.

An engine that doesn't claim ``combat`` gets none of this: its boards and events are as before.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

import cards as card_data
from cards import reader
from invariants import combat as C

from harness.generation import strategies as S
from harness.wire.plain import plain
from .base import RulesArea, needs

#: Keywords whose rules apply in combat and are played (CR 702.2, 702.3, 702.4, 702.7, 702.9, 702.10,
#: 702.15, 702.17, 702.19, 702.20, 702.111).
COMBAT_KEYWORDS = frozenset({"first strike", "double strike", "trample", "deathtouch", "lifelink", "vigilance",
                             "flying", "reach", "menace", "defender", "haste"})


def _combat_card(name: str) -> bool:
    """Whether a creature card has a keyword or restriction that matters in combat (its card data)."""
    try:
        model = reader.model(name)
        card = card_data.card(name)
    except card_data.UnknownCardName:
        return False
    keywords = model.keywords() | card.keywords
    return bool(keywords & COMBAT_KEYWORDS) or any(a.restrictions for a in model.abilities)


def _corner_cards(plan) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(every creature, those that matter in combat) of the plan a corner may hold: not legendary
    (two of one name would start the legend rule), toughness 1 or more (a legal board)."""
    cache = plan.__dict__.setdefault("_combat_corner_cards", {})
    if "cards" not in cache:
        every = tuple(c for c in plan.lists.get("creatures", ())
                      if "Legendary" not in card_data.card(c).supertypes and (card_data.card(c).toughness or 0) >= 1)
        cache["cards"] = (every, tuple(c for c in every if _combat_card(c)))
    return cache["cards"]


def _grants(name: str) -> bool:
    """Whether an Aura's or Equipment's card gives the creature a combat keyword or restriction."""
    try:
        model = reader.model(name)
    except card_data.UnknownCardName:
        return False
    return any(set(a.keywords) & COMBAT_KEYWORDS or a.restrictions for a in model.abilities
               if a.affected is not None and a.affected.scope in ("enchanted", "equipped"))


def _printed_keywords(name: str) -> frozenset[str]:
    try:
        return reader.model(name).keywords() | card_data.card(name).keywords
    except card_data.UnknownCardName:
        return frozenset()


def _granted(name: str) -> frozenset[str]:
    """The keywords an Aura's or Equipment's card gives the creature it is attached to."""
    try:
        model = reader.model(name)
    except card_data.UnknownCardName:
        return frozenset()
    return frozenset(k for a in model.abilities if a.affected is not None and a.affected.scope in ("enchanted", "equipped")
                     for k in a.keywords)


#: A keyword a creature has -> the keywords worth adding to it: their rules meet in combat.
_PAIRS = {"deathtouch": frozenset({"trample"}), "trample": frozenset({"deathtouch", "lifelink"}),
          "double strike": frozenset({"trample", "lifelink", "deathtouch"}), "lifelink": frozenset({"trample"})}


def _corner_attachments(plan) -> tuple[str, ...]:
    """The plan's Auras with a bonus and Equipment whose card gives a combat keyword or restriction
    (declared cards of the database: Epic Proportions' trample, Gorgon Flail's deathtouch, ...)."""
    cache = plan.__dict__.setdefault("_combat_corner_cards", {})
    if "attachments" not in cache:
        cache["attachments"] = tuple(c for c in plan.lists.get("bonus_auras", ()) + plan.lists.get("equipment", ())
                                     if _grants(c))
    return cache["attachments"]


def _corner_attachment(draw, attachments: tuple[str, ...], name: str, owner: str, attached_to: str) -> dict:
    """An Aura or Equipment of the combat corner attached to creature ``attached_to`` (card ``name``)."""
    # half the time one that completes a pair of keywords whose rules meet (deathtouch and
    # trample, CR 702.2c; trample or double strike and lifelink, 702.15b)
    wanted = frozenset().union(*(_PAIRS.get(k, ()) for k in _printed_keywords(name)))
    pairing = [c for c in attachments if _granted(c) & wanted]
    pool = pairing if pairing and S.boolean(draw) else attachments
    card = pool[S.integer(draw, 0, len(pool) - 1)]
    controller = owner if S.enchants_own(card) or "Equipment" in card_data.card(card).subtypes \
        else draw(S.players)
    return {"id": f"{attached_to}a", "card": card, "owner": controller, "controller": controller,
            "attached_to": attached_to}


@st.composite
def combat_corner(draw, plan):
    """The combat corner of a board: 1..4 creatures (``w<i>``), alternately of each player (the
    first player drawn), untapped and not summoning sick but one in six (CR 302.6, 508.1a); one in
    three has an Aura or Equipment of the plan that gives it a combat keyword or restriction
    (``w<i>a``), so keywords meet (deathtouch and trample, CR 702.19b, 702.2c)."""
    every, combat = _corner_cards(plan)
    attachments = _corner_attachments(plan)
    if not every or not S.integer(draw, 0, 2):
        return []
    first = draw(S.players)
    order = (first, next(p for p in S.PLAYERS if p != first))
    found = []
    for i in range(S.integer(draw, 1, 4)):
        pool = combat if combat and S.integer(draw, 0, 3) else every
        name = pool[S.integer(draw, 0, len(pool) - 1)]
        owner = order[i % 2]
        spec = {"id": f"w{i}", "card": name, "owner": owner, "controller": owner}
        if plan.has("tapped permanents") and S.rarely(draw, 6):
            spec["tapped"] = True
        if plan.has("summoning_sick") and S.rarely(draw, 6):
            spec["summoning_sick"] = True
        found.append(spec)
        if attachments and S.rarely(draw, 3):
            found.append(_corner_attachment(draw, attachments, name, owner, spec["id"]))
    return found


def with_combat_corner(boards: st.SearchStrategy[dict], plan) -> st.SearchStrategy[dict]:
    """``boards`` with the combat corner added for a ``plan`` that has capability ``combat``; for any
    other plan, ``boards`` itself (the same strategy object: generation is unchanged)."""
    if "combat" not in plan.capabilities:
        return boards
    return st.tuples(boards, combat_corner(plan)).map(
        lambda pair: pair[0] if not pair[1] else {**pair[0], "objects": pair[0]["objects"] + pair[1]})


def _illegal_odds(observation: dict, mine: list[str]) -> int:
    """The highest draw of 0..3 that makes a declaration of blockers hold an illegal block: one time in
    four, one in two when a creature of the defending player "can't block" (CR 509.1b)."""
    return 1 if any("can't block" in C.restrictions(observation, b) for b in mine) else 0


def _loose_blocker(data, observation: dict, mine: list[str], legal: dict[str, list[str]]) -> str:
    """The creature whose block is any attacker (it may be illegal): mostly one that may block
    nothing, one that "can't block", else an untapped one."""
    objects = observation["objects"]
    stuck = [b for b in mine if not legal[b]]
    restricted = [b for b in stuck if "can't block" in C.restrictions(observation, b)]
    untapped = [b for b in stuck if not objects[b].get("tapped")]
    return S.pick(data, (restricted or untapped or stuck) if stuck and S.draw_integer(data, 0, 3, "stuck")
                  else mine, "loose")


def _blocks(data, objects: dict, attackers: list[str], mine: list[str], legal: dict[str, list[str]],
            loose: str | None) -> dict[str, str]:
    """Blocker -> attacker: the loose one any attacker, each other untapped one two times in three an
    attacker it may block."""
    blocks: dict[str, str] = {}
    for blocker in mine:
        if blocker == loose:
            blocks[blocker] = S.pick(data, attackers, f"{blocker} blocks")
            continue
        if objects[blocker].get("tapped") or not S.draw_integer(data, 0, 2, f"{blocker} blocks"):
            continue
        if legal[blocker]:
            blocks[blocker] = S.pick(data, legal[blocker], f"{blocker} blocks")
    return blocks


def _menace_blocks(data, objects: dict, attackers: list[str], mine: list[str], legal: dict[str, list[str]],
                   loose: str | None, blocks: dict[str, str]) -> None:
    """A creature with menace blocked by one gets a second blocker when there is one, else the block
    is dropped (CR 702.111b); ``blocks`` changed in place."""
    for attacker in attackers:
        its = [b for b, a in blocks.items() if a == attacker]
        if len(its) == 1 and its[0] != loose and "menace" in (objects[attacker].get("keywords") or ()) \
                and S.draw_integer(data, 0, 3, "menace needs two"):
            others = [b for b in mine if b not in blocks and attacker in legal[b]]
            if others:
                blocks[S.pick(data, others, "second blocker")] = attacker
            else:
                del blocks[its[0]]


class CombatActions(RulesArea):
    """Declaring attackers and blockers, combat damage steps, end of combat (CR 508-511)."""

    # ------------------------------------------------------------ queries
    def _creatures_of(self, player: str) -> list[str]:
        objects = self.observation["objects"]
        return [oid for oid in self._live() if objects[oid].get("controller") == player]

    def _may_attack(self, player: str) -> list[str]:
        """The creatures ``player`` may declare as attackers, by the board and the card data."""
        observation = plain(self.observation)  # invariants.combat reads plain dicts
        return [oid for oid in self._creatures_of(player) if C.attack_problem(observation, oid, player) is None
                and C.unplayed(observation, oid) is None]

    def combat_declared(self) -> bool:
        return self.session is not None and "combat" in self.observation

    def blockers_due(self) -> bool:
        return self.combat_declared() and self.observation["combat"].get("step") == "declare_attackers"

    def damage_due(self) -> bool:
        return self.combat_declared() and self.observation["combat"].get("step") != "combat_damage"

    # ------------------------------------------------------------ events
    def _end_combat_first(self, data) -> None:
        """A combat in progress (declared, or statuses of the board or set_combat) ends first (CR 511.3)."""
        if C.in_combat(plain(self.observation)):
            self._apply({"type": "end_of_combat"}, data)

    def _declare_attackers(self, data, legal_only: bool = False) -> None:
        """Mostly a declaration of creatures that may attack (three times in four, some of those of the
        player with the most); sometimes one with a creature that may not (it must be refused)."""
        may = {p: self._may_attack(p) for p in S.PLAYERS}  # each player's, read once: nothing changes before the event
        player = max(S.PLAYERS, key=lambda p: len(may[p])) if S.draw_integer(data, 0, 3, "attacker") \
            else S.pick(data, S.PLAYERS, "attacking player")
        legal = sorted(may[player])
        attackers = [oid for oid in legal if S.draw_integer(data, 0, 3, f"{oid} attacks")]
        if not legal_only and S.draw_integer(data, 0, 7, "an illegal attacker") == 0:
            observation = plain(self.observation)
            illegal = sorted(oid for oid in self._live() if C.attack_problem(observation, oid, player) is not None)
            if illegal:
                attackers.append(S.pick(data, illegal, "illegal attacker"))
        self._apply({"type": "declare_attackers", "player": player, "attackers": attackers}, data)

    def _declare_blockers(self, data, legal_only: bool = False) -> None:
        """Each untapped creature of the defending player blocks two times in three, an attacker it may
        block; a creature with menace gets a second blocker when there is one (CR 702.111b), else the
        block is dropped; sometimes (one time in four, in two when one of them "can't block") one block is
        any attacker (it may be illegal)."""
        observation = plain(self.observation)
        objects = observation["objects"]
        combat = observation["combat"]
        defending = combat["defending_player"]
        attackers = sorted(oid for oid in self._live() if objects[oid].get("combat") == "attacking")
        if not attackers:
            return
        if any(C.unplayed(observation, a) for a in attackers):
            return  # an ability not played would matter (the engine may decline): no blockers this time
        mine = sorted(b for b in self._creatures_of(defending) if C.unplayed(observation, b) is None)
        legal = {b: [a for a in attackers if C.block_problem(observation, b, a, defending) is None] for b in mine}
        loose = None
        if not legal_only and mine and S.draw_integer(data, 0, 3, "an illegal block") <= _illegal_odds(
                observation, mine):
            loose = _loose_blocker(data, observation, mine, legal)
        blocks = _blocks(data, objects, attackers, mine, legal, loose)
        _menace_blocks(data, objects, attackers, mine, legal, loose, blocks)
        self._apply({"type": "declare_blockers", "blocks": blocks}, data)

    @needs("combat")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def declare_attackers(self, data):
        """Declare attackers (CR 508.1), after the combat in progress ends, but one time in eight while
        it goes on (refused: a combat at a time)."""
        if S.draw_integer(data, 0, 7, "during a combat") or not C.in_combat(plain(self.observation)):
            self._end_combat_first(data)
        self._declare_attackers(data)

    @needs("combat")
    @precondition(blockers_due)
    @rule(data=st.data())
    def declare_blockers(self, data):
        """Declare blockers (CR 509.1) for the attackers declared."""
        self._declare_blockers(data)

    @needs("combat")
    @precondition(damage_due)
    @rule(data=st.data())
    def combat_damage(self, data):
        """A combat damage step (CR 510): the first strike step or the regular one."""
        self._apply({"type": "combat_damage"}, data)

    @needs("combat")
    @rule(data=st.data())
    def end_of_combat(self, data):
        """The end of combat step (CR 511.3): every creature is removed from combat."""
        self._apply({"type": "end_of_combat"}, data)

    @needs("combat")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def whole_combat(self, data):
        """A whole combat: legal attackers and blockers, then every combat damage step (one, or two with
        first strike or double strike); half the time the end of combat too (else the creatures stay in
        combat for the events that follow: removal from combat, CR 506.4)."""
        self._end_combat_first(data)
        self._declare_attackers(data, legal_only=True)
        if self.blockers_due():
            self._declare_blockers(data, legal_only=True)
        for _ in range(2):
            if self.damage_due():
                self._apply({"type": "combat_damage"}, data)
        if self.combat_declared() and S.draw_boolean(data, "end of combat"):
            self._apply({"type": "end_of_combat"}, data)

    @needs("combat")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def unblocked_combat(self, data):
        """Legal attackers and no blockers, then every combat damage step: damage to the player,
        double strike, lifelink (CR 510.1b, 702.4b, 702.15b)."""
        self._end_combat_first(data)
        self._declare_attackers(data, legal_only=True)
        for _ in range(2):
            if self.damage_due():
                self._apply({"type": "combat_damage"}, data)

    @needs("combat")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def blocked_combat(self, data):
        """Legal attackers, blockers (one time in four with a block that may be illegal: it must be
        refused, CR 509.1), then one combat damage step: the creatures stay in combat for the events
        that follow (the second step, removal from combat, CR 506.4, 510.4)."""
        self._end_combat_first(data)
        self._declare_attackers(data, legal_only=True)
        if self.blockers_due():
            self._declare_blockers(data)
        if self.damage_due():
            self._apply({"type": "combat_damage"}, data)
