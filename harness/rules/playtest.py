"""State machine rules for the playtest supertypes (capability ``playtest_supertypes``).

Orb of Origin's rulings (2024-11-08): an Orb makes the other noncreature artifacts mono
(an additional {T} to activate their abilities) and continuous (no abilities while
tapped); several Orbs make each other mono and continuous; the Orb is poly (its first
ability costs no {T} unless another Orb is on the battlefield). A mixin of
:class:`harness.running.machine.EngineMachine`.

Boards of an engine that claims ``playtest_supertypes`` (with ``mana`` and
``tap_untap_costs``) get, one board in two, a playtest corner (:func:`playtest_objects`):
one or two Orbs, and noncreature artifacts that care (Thought Vessel, whose "You have no
maximum hand size" goes while it is tapped; Sword of the Meek, equipped to a creature of
the board or not; Fellwar Stone; Krark's Thumb) beside an artifact creature the Orb must
leave alone (Darksteel Myr), some of them tapped. Events: scenes that put Orbs and
artifacts onto the battlefield, begin a turn, tap the artifacts for mana, equip the Sword
with mana from Forests, activate the Orbs' first ability and untap everything again; and
single activations of an artifact's ability 0, tapped or not.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs

ORB, VESSEL, SWORD = "Orb of Origin", "Thought Vessel", "Sword of the Meek"
#: Artifacts of the playtest corner and scenes: noncreature artifacts the Orb makes mono and
#: continuous (their abilities: {T} mana abilities, an equip without {T}, a replacement
#: effect) and an artifact creature it must not touch.
PLAYTEST_ARTIFACTS = (VESSEL, SWORD, "Fellwar Stone", "Krark's Thumb", "Darksteel Myr")
#: Permanents whose ability 0 the rules activate.
ACTIVATED = (ORB, VESSEL, SWORD, "Fellwar Stone")
PLAYTEST = ("playtest_supertypes", "mana", "tap_untap_costs")


@st.composite
def playtest_objects(draw):
    """The playtest corner of a board: Orbs ``o<i>`` (one or two; the second, often, under the
    other player) and artifacts ``pa<i>`` (one to three), each tapped one time in two;
    a Sword of the Meek is drawn attached to the board's first creature (``"c0"``) or not."""
    owner = draw(S.players)
    other = next(p for p in S.PLAYERS if p != owner)
    found = []
    for i in range(S.integer(draw, 1, 2, "orbs")):
        whose = owner if i == 0 or S.boolean(draw) else other
        found.append({"id": f"o{i}", "card": ORB, "owner": whose, "controller": whose,
                      **({"tapped": True} if S.integer(draw, 0, 2) == 0 else {})})
    for i, card in enumerate(S.several(draw, PLAYTEST_ARTIFACTS, 1, 3, "artifacts")):
        spec = {"id": f"pa{i}", "card": card, "owner": owner, "controller": owner}
        if S.boolean(draw):
            spec["tapped"] = True
        if card == SWORD and S.boolean(draw):
            spec["attached_to"] = "c0"
        found.append(spec)
    return found


def with_playtest_corner(boards: st.SearchStrategy, plan) -> st.SearchStrategy:
    """``boards`` (a board strategy of ``plan``, a ``harness.generation.plan.Plan``) with the playtest
    corner on one board in two, when ``plan`` has the board feature "playtest artifacts"
    and the capabilities the corner's events need (``mana``, ``tap_untap_costs``); else
    ``boards`` itself, so other engines draw exactly what they drew before. Only cards the
    plan's engine declares are kept; a Sword of the Meek is attached only if the board has
    its first creature ``c0``."""
    declared = plan.declared_cards

    def plays(card) -> bool:
        return declared is None or card in declared

    if not plan.has("playtest artifacts") or not set(PLAYTEST) <= plan.capabilities or not plays(ORB):
        return boards

    def merge(pair):
        board, corner = pair
        if not corner:
            return board
        ids = {o["id"] for o in board["objects"] if o.get("zone", "battlefield") == "battlefield"}
        added = []
        for spec in corner:
            if not plays(spec["card"]):
                continue
            if spec.get("attached_to") and spec["attached_to"] not in ids:
                spec = {k: v for k, v in spec.items() if k != "attached_to"}
            added.append(spec)
        return {**board, "objects": board["objects"] + added}

    return st.tuples(boards, st.one_of(st.none(), playtest_objects())).map(merge)


class PlaytestActions(RulesArea):
    """Orbs of Origin, the artifacts they change, and activating their abilities."""

    def _playtest_plays(self, card: str) -> bool:
        cards = getattr(getattr(getattr(self, "engine", None), "info", None), "cards", None)
        return cards is None or card in cards

    def _activatable_playtest(self) -> list[str]:
        observation = self.observation
        return [oid for oid in observation["zones"]["battlefield"]
                if observation["objects"][oid]["name"] in ACTIVATED]

    def has_playtest_artifact(self) -> bool:
        return self.session is not None and bool(self._activatable_playtest())

    def _put(self, card: str, controller: str, data) -> str:
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": None}, data)
        return oid

    @needs(*PLAYTEST)
    @rule(owner=S.players, data=st.data())
    def playtest_scene(self, owner, data):
        """One or two Orbs (the second perhaps the other player's) and one or two artifacts under
        ``owner`` (with a Sword of the Meek, a creature and two Forests to equip it); ``owner``'s
        turn begins (CR 302.6), then one to three of: tap an artifact for mana or activate its
        ability, equip the Sword with the Forests' mana, activate an Orb's first ability, a new
        turn (everything untaps)."""
        if not self._playtest_plays(ORB):
            return
        other = next(p for p in S.PLAYERS if p != owner)
        orbs = [self._put(ORB, owner if i == 0 or S.draw_boolean(data, "orb mine") else other, data)
                for i in range(S.draw_integer(data, 1, 2, "orbs"))]
        cards = S.draw_several(data, [c for c in PLAYTEST_ARTIFACTS if self._playtest_plays(c)], 1, 2, "artifacts")
        artifacts = [(self._put(card, owner, data), card) for card in cards]
        swords = [oid for oid, card in artifacts if card == SWORD]
        equip = bool(swords) and all(self._playtest_plays(c) for c in ("Grizzly Bears", "Forest"))
        forests = []
        if equip:
            self._put("Grizzly Bears", owner, data)
            forests = [self._put("Forest", owner, data) for _ in range(2)]
        self._apply({"type": "begin_turn", "player": owner}, data)
        for _ in range(S.draw_integer(data, 1, 3, "actions")):
            if self.session.broken:
                return
            action = S.draw_element(data, ("artifact", "equip", "orb", "turn"), "action")
            self._scene_action(data, action, orbs, artifacts, swords, forests if equip else None)

    def _scene_action(self, data, action: str, orbs: list[str], artifacts: list[tuple[str, str]],
                      swords: list[str], forests: list[str] | None) -> None:
        """One action of playtest_scene (``forests`` None: no Sword can be equipped)."""
        if action == "artifact":
            oid, card = S.draw_element(data, artifacts, "artifact")
            if card in ACTIVATED:
                self._apply({"type": "activate", "object": oid, "ability": 0}, data)
        elif action == "equip" and forests is not None:
            for forest in forests:
                self._apply({"type": "activate", "object": forest, "ability": 0}, data)
            self._apply({"type": "activate", "object": S.draw_element(data, swords, "sword"),
                         "ability": 0}, data)
        elif action == "orb":
            self._apply({"type": "activate", "object": S.draw_element(data, orbs, "orb"),
                         "ability": 0}, data)
        elif action == "turn":
            self._apply({"type": "begin_turn", "player": data.draw(S.players, label="turn")}, data)

    @needs(*PLAYTEST)
    @precondition(has_playtest_artifact)
    @rule(data=st.data())
    def playtest_activate(self, data):
        """Activate ability 0 of an Orb or an artifact it changes (tapped or not, mono or not)."""
        oid = self._pick(data, self._activatable_playtest(), "object")
        self._apply({"type": "activate", "object": oid, "ability": 0}, data)
