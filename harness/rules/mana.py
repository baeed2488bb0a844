"""Rules for mana abilities and activation costs (capabilities ``mana``, ``tap_untap_costs``).

Boards of an engine that claims ``mana`` get, on most examples, a mana corner
(:func:`mana_objects`): lands of both players (basic lands, Reflecting Pool, Exotic
Orchard), mana creatures and artifacts, tapped or summoning sick or not, and the
"tapped for mana" enchantments (Mana Reflection, Nyxbloom Ancient, Contamination,
Heartbeat of Spring, Mana Flare), often two of the same. Events: ``activate`` (mostly a
real ability of a live permanent, sometimes one that can't be paid or doesn't exist),
``pass_step``, ``begin_turn`` and mana permanents put onto the battlefield. {Q}
abilities, non-mana abilities and their mana costs need ``tap_untap_costs`` too.

An engine that claims neither capability gets none of this: its boards and events are
the same as before.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import multiple, precondition, rule

from invariants import mana_model as M

from harness.generation import strategies as S
from harness.protocol import BoardSpec
from .base import RulesArea, needs, objects

#: Lands with mana abilities (CR 305.6 for the basic land types; CR 106.7 for the others).
MANA_LANDS = ("Forest", "Island", "Plains", "Swamp", "Mountain", "Reflecting Pool", "Exotic Orchard")
#: Creatures with {T} mana abilities.
MANA_CREATURES = ("Llanowar Elves", "Birds of Paradise")
#: Creatures whose abilities cost {Q} (and mana), and Fatestitcher's non-mana {T} ability.
COST_CREATURES = ("Pili-Pala", "Gilder Bairn", "Order of Whiteclay", "Puresight Merrow", "Fatestitcher")
MANA_ARTIFACTS = ("Fellwar Stone", "Thought Vessel")
#: "Tapped for mana" replacement effects and triggers (CR 106.12a, 106.12b).
MANA_ENCHANTMENTS = ("Mana Reflection", "Nyxbloom Ancient", "Contamination", "Heartbeat of Spring", "Mana Flare")
#: Small boards each ruling talks about (card, whose: 0 = the first player drawn, 1 = the
#: other, state: "" untapped, "tapped", or "sick": tapped and summoning sick), one of which
#: the mana corner often starts with: a {Q} mana ability beside Mana Reflection (CR
#: 106.12), lands looking at each other (106.7, 106.5), could-produce under Contamination
#: (106.7), two "tapped for mana" triggers (106.12a), cumulative multipliers and
#: Contamination in either order (106.12b, 616.1), {Q} abilities of summoning-sick
#: creatures with mana to pay (107.6, 302.6).
RULING_BOARDS = (
    (("Forest", 0, ""), ("Forest", 0, ""), ("Pili-Pala", 0, "tapped"), ("Mana Reflection", 0, "")),
    (("Reflecting Pool", 0, ""), ("Reflecting Pool", 0, ""), ("Exotic Orchard", 0, ""), ("Exotic Orchard", 1, "")),
    (("Fellwar Stone", 0, ""), ("Forest", 1, ""), ("Island", 1, ""), ("Contamination", 1, ""),
     ("Reflecting Pool", 0, "")),
    (("Forest", 0, ""), ("Llanowar Elves", 0, ""), ("Heartbeat of Spring", 0, ""), ("Mana Flare", 1, "")),
    (("Forest", 0, ""), ("Mana Reflection", 0, ""), ("Mana Reflection", 0, ""), ("Nyxbloom Ancient", 0, ""),
     ("Contamination", 1, "")),
    (("Puresight Merrow", 0, "sick"), ("Gilder Bairn", 0, "sick"), ("Pili-Pala", 0, "sick"), ("Plains", 0, ""),
     ("Island", 0, ""), ("Forest", 0, "")),
)
ACTIVATED = frozenset(MANA_LANDS + MANA_CREATURES + COST_CREATURES + MANA_ARTIFACTS)


def _ruling_board(draw, costs: bool) -> list[dict]:
    """mana_objects' ruling board (``r<i>``), its {Q} creatures only with ``costs``."""
    found = []
    first = draw(S.players)
    other = next(p for p in S.PLAYERS if p != first)
    for i, (card, whose, state) in enumerate(S.element(draw, RULING_BOARDS, "ruling board")):
        if card in COST_CREATURES and not costs:
            continue
        owner = (first, other)[whose]
        spec = {"id": f"r{i}", "card": card, "owner": owner, "controller": owner}
        if state:
            spec["tapped"] = True
        if state == "sick":
            spec["summoning_sick"] = True
        found.append(spec)
    return found


def _mana_permanents(draw, costs: bool, found: list[dict]) -> None:
    """mana_objects' lands and mana permanents (``m<i>``, at least one without a ruling board)."""
    creatures = MANA_CREATURES + (COST_CREATURES + ("Pili-Pala",) if costs else ())  # Pili-Pala: the {Q} mana ability
    for i in range(S.integer(draw, 0 if found else 1, 4)):
        kind = S.integer(draw, 0, 5)
        pool = MANA_LANDS if kind <= 2 else creatures if kind <= 4 else MANA_ARTIFACTS
        card = S.element(draw, pool, "mana permanent")
        owner = draw(S.players)
        spec = {"id": f"m{i}", "card": card, "owner": owner, "controller": owner}
        if S.integer(draw, 0, 3) < (3 if card in COST_CREATURES[:-1] else 1):  # {Q} creatures: mostly tapped
            spec["tapped"] = True
        if pool is creatures and S.integer(draw, 0, 2) == 0:
            spec["summoning_sick"] = True
        found.append(spec)


def _mana_enchantments(draw, found: list[dict]) -> None:
    """mana_objects' "tapped for mana" enchantments (``e<i>``), sometimes two of the same."""
    enchantments = S.several(draw, MANA_ENCHANTMENTS, 0, 3, "enchantments")
    if enchantments and S.boolean(draw):
        enchantments.append(enchantments[0])  # two of the same: each applies, each triggers
    for i, card in enumerate(enchantments):
        # Mostly the first permanent's controller's: "If you tap a permanent for mana".
        owner = found[0]["owner"] if S.integer(draw, 0, 2) else draw(S.players)
        found.append({"id": f"e{i}", "card": card, "owner": owner, "controller": owner})


@st.composite
def mana_objects(draw, costs: bool):
    """The mana corner of a board: ids ``r<i>`` (one of :data:`RULING_BOARDS`, on two boards in
    three), ``m<i>`` (lands and mana permanents), ``e<i>``
    (enchantments), ``g<i>`` (a creature card in a graveyard, for Order of Whiteclay),
    ``t<i>`` (a library card, for Puresight Merrow). ``costs``: also {Q} creatures."""
    found = _ruling_board(draw, costs) if S.integer(draw, 0, 2) else []
    _mana_permanents(draw, costs, found)
    _mana_enchantments(draw, found)
    if costs and S.integer(draw, 0, 2) == 0:
        found.append({"id": "g0", "card": "Grizzly Bears", "owner": draw(S.players), "zone": "graveyard"})
        found.append({"id": "t0", "card": S.element(draw, MANA_LANDS), "owner": draw(S.players),
                      "zone": "library"})
    return found


def board_extras():
    """The board features of every area, drawn with the board: ``{"mana": [objects] or None}``
    (the mana corner on three boards in four)."""
    from .stack import stack_extras  # the stack corner (harness.rules.stack): one board in three is a stack game

    corner = st.one_of(st.none(), mana_objects(True), mana_objects(True), mana_objects(True))
    return st.fixed_dictionaries({"mana": corner, "stack": stack_extras()})


class ManaActions(RulesArea):
    """Activating abilities, mana, steps and turns."""

    def extend_board(self, board: BoardSpec, extras: dict) -> BoardSpec:
        """Add the mana corner (``extras["mana"]``, on most boards) to the board of an engine
        that claims ``mana``; {Q} creatures and Fatestitcher only if it claims ``tap_untap_costs``."""
        board = super().extend_board(board, extras)
        extra = extras.get("mana")
        if "mana" not in self.capabilities or not extra:
            return board
        costs = "tap_untap_costs" in self.capabilities
        extra = [o for o in extra if self._plays(o["card"]) and (costs or o["card"] not in COST_CREATURES)]
        if not costs:
            extra = [o for o in extra if o.get("zone") is None]  # the graveyard and library cards serve {Q} abilities
        return {**board, "objects": board["objects"] + extra}

    def _plays(self, card: str) -> bool:
        """Whether the engine plays ``card`` (``EngineInfo.cards``; None: every card)."""
        cards = getattr(getattr(self, "engine", None), "info", None)
        cards = getattr(cards, "cards", None)
        return cards is None or card in cards

    def _activatable(self) -> list[str]:
        """Permanents on the battlefield with an activated ability of this area's cards (read
        from card data; other cards' abilities, such as River Boa's regeneration, have their
        own events)."""
        observation = self.observation
        return [oid for oid in observation["zones"]["battlefield"]
                if observation["objects"][oid]["name"] in ACTIVATED
                or not M.BASIC_LAND_MANA.keys().isdisjoint(observation["objects"][oid]["subtypes"])]

    def has_activatable(self) -> bool:
        return self.session is not None and bool(self._activatable())

    def _usable(self, oid: str) -> bool:
        """Whether a payable-looking ability is there: {T} untapped, {Q} tapped, no sickness."""
        o = self.observation["objects"][oid]
        for ability in M.abilities(o["name"], tuple(o["subtypes"])):
            if ability.tap != ability.untap and ability.tap == (not o["tapped"]):
                if not (o["summoning_sick"] and "Creature" in o["types"]):
                    return True
        return False

    @needs("mana")
    @precondition(has_activatable)
    @rule(data=st.data())
    def activate(self, data):
        """Activate an ability of a live permanent: mostly one whose {T}/{Q} can be paid."""
        observation = self.observation
        options = self._activatable()
        if "tap_untap_costs" not in self.capabilities:
            options = [oid for oid in options if all(
                a.produces is not None and a.tap and not a.mana_cost
                for a in M.abilities(observation["objects"][oid]["name"],
                                     tuple(observation["objects"][oid]["subtypes"])))]
            if not options:
                return
        if S.draw_integer(data, 0, 3, "usable"):
            options = [o for o in options if self._usable(o)] or options
        oid = self._pick(data, options, "object")
        o = observation["objects"][oid]
        count = len(M.abilities(o["name"], tuple(o["subtypes"])))
        index = S.draw_integer(data, 0, count if S.draw_integer(data, 0, 9, "no such") == 0 else count - 1, "ability")
        self._apply({"type": "activate", "object": oid, "ability": index}, data)

    def _mana_sources(self) -> list[tuple[str, int]]:
        """(id, ability index) of the {T} mana abilities that can be paid now."""
        objects = self.observation["objects"]
        found = []
        for oid in self._activatable():
            o = objects[oid]
            if o["tapped"] or (o["summoning_sick"] and "Creature" in o["types"]):
                continue
            found += [(oid, i) for i, a in enumerate(M.abilities(o["name"], tuple(o["subtypes"])))
                      if a.produces is not None and a.tap and not a.mana_cost]
        return found

    def has_mana_source(self) -> bool:
        return self.session is not None and bool(self._mana_sources())

    @needs("mana")
    @precondition(has_mana_source)
    @rule(data=st.data())
    def tap_for_mana(self, data):
        """Tap an untapped permanent for mana (CR 106.12): replacement effects and triggers apply."""
        oid, index = S.pick(data, sorted(self._mana_sources()), "mana ability")
        self._apply({"type": "activate", "object": oid, "ability": index}, data)

    def _untap_abilities(self) -> list[tuple[str, int]]:
        """(id, ability index) of the {Q} abilities of tapped permanents on the battlefield."""
        objects = self.observation["objects"]
        return [(oid, i) for oid in self._activatable() if objects[oid]["tapped"]
                for i, a in enumerate(M.abilities(objects[oid]["name"], tuple(objects[oid]["subtypes"]))) if a.untap]

    def has_untap_ability(self) -> bool:
        return self.session is not None and bool(self._untap_abilities())

    @needs("mana", "tap_untap_costs")
    @precondition(has_untap_ability)
    @rule(data=st.data())
    def pay_then_untap(self, data):
        """Tap the controller's mana sources for as much mana as a {Q} ability costs, then
        activate it (CR 107.6, 601.2h): reaches {Q} costs paid with mana, by creatures that
        may be summoning sick (CR 302.6) and under "tapped for mana" effects."""
        oid, index = S.pick(data, sorted(self._untap_abilities()), "untap ability")
        objects = self.observation["objects"]
        player = objects[oid]["controller"]
        cost = sum(int(s) if s.isdigit() else 1 for s in M.abilities(
            objects[oid]["name"], tuple(objects[oid]["subtypes"]))[index].mana_cost)
        for source in self._activatable():
            observation = self.observation
            if sum(M.pool(observation, player).values()) >= cost:
                break
            o = observation["objects"].get(source)
            if o is None or o["zone"] != "battlefield" or o["controller"] != player or o["tapped"] \
                    or (o["summoning_sick"] and "Creature" in o["types"]):
                continue
            for i, a in enumerate(M.abilities(o["name"], tuple(o["subtypes"]))):
                if a.produces is not None and a.tap and not a.mana_cost:
                    self._apply({"type": "activate", "object": source, "ability": i}, data)
                    break
        self._apply({"type": "activate", "object": oid, "ability": index}, data)

    @needs("mana")
    @rule(data=st.data())
    def pass_step(self, data):
        self._apply({"type": "pass_step"}, data)

    @needs("mana")
    @rule(player=S.players, data=st.data())
    def begin_turn(self, player, data):
        self._apply({"type": "begin_turn", "player": player}, data)

    @needs("mana")
    @rule(target=objects, controller=S.players, data=st.data())
    def put_mana_permanent(self, controller, data):
        """A land, mana creature or artifact, or a "tapped for mana" enchantment enters (a
        creature that just entered is summoning sick, CR 302.6)."""
        cards = [c for c in MANA_LANDS + MANA_CREATURES + MANA_ARTIFACTS + MANA_ENCHANTMENTS if self._plays(c)]
        if not cards:
            return multiple()
        oid = self._new_id()
        card = S.pick(data, cards, "card")
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": None}, data)
        return oid
