"""State machine rules for coins and dice (capability ``chance``; CR 705, 706, 614.5, 616.1).

A rules-area mixin of :class:`harness.running.machine.EngineMachine`. It puts the permanents that replace or
watch flips and rolls onto the battlefield (Krark's Thumb, Pixie Guide, Pokey, the
Scallywagg, Tavern Scoundrel, Brazen Dwarf) and instructs players to flip coins and roll
dice. Scenes put several of them under one player and then have that player, or the
other one, flip or roll at once, so the interactions the rulings talk about (a flip
replaced by a d20 roll while Pixie Guide and Brazen Dwarf watch, Krark's Thumb's ignored
coin and Tavern Scoundrel) are reached in a few steps.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs

#: Permanents that replace or watch coin flips and die rolls.
CHANCE_CARDS = ("Krark's Thumb", "Pixie Guide", "Pokey, the Scallywagg", "Tavern Scoundrel", "Brazen Dwarf")
#: Dice the generator rolls: d20s (Pokey's third ability applies to one d20) and a d6.
DICE_SIDES = (20, 6)
POKEY, SCOUNDREL, THUMB = "Pokey, the Scallywagg", "Tavern Scoundrel", "Krark's Thumb"


def flip_event(player: str, count: int, calls: bool) -> dict:
    """The ``flip_coins`` event (``harness.protocol``)."""
    return {"type": "flip_coins", "player": player, "count": count, "calls": calls}


def roll_event(player: str, count: int, sides: int) -> dict:
    """The ``roll_dice`` event (``harness.protocol``)."""
    return {"type": "roll_dice", "player": player, "count": count, "sides": sides}


class ChanceActions(RulesArea):
    """Rules generating coin flips, die rolls and the permanents that care about them."""

    def chance_cards(self, wanted=CHANCE_CARDS) -> list[str]:
        """The cards of ``wanted`` the engine plays (``EngineInfo.cards``; None: all)."""
        cards = getattr(self.engine.info, "cards", None)
        return [c for c in wanted if cards is None or c in cards]

    def can_activate_scoundrel(self) -> bool:
        return len(self.chance_cards((SCOUNDREL, "Forest"))) == 2

    def has_chance_cards(self) -> bool:
        return bool(self.chance_cards())

    @needs("chance")
    @rule(player=S.players, count=st.integers(1, 3), data=st.data())
    def flip_or_roll(self, player, count, data):
        """An effect instructs ``player`` to flip ``count`` coins (with or without a call) or
        to roll ``count`` dice."""
        if S.draw_boolean(data, "flip"):
            self._apply(flip_event(player, count, S.draw_boolean(data, "calls")), data)
        else:
            self._apply(roll_event(player, count, S.pick(data, DICE_SIDES, "sides")), data)

    @needs("chance")
    @precondition(has_chance_cards)
    @rule(owner=S.players, data=st.data())
    def chance_scene(self, owner, data):
        """One to three chance permanents under ``owner``, then a flip or a roll by ``owner``
        (usually) or by the other player (whose flips their permanents must not touch)."""
        chance_cards = self.chance_cards()
        cards = S.draw_several(data, chance_cards, 1, 3, "cards")
        if POKEY in chance_cards and POKEY not in cards and S.draw_boolean(data, "with Pokey"):
            cards.insert(0, POKEY)  # half the scenes: Pokey's replacements meet the others' (its rulings)
        for card in cards:
            self._apply({"type": "put_onto_battlefield", "id": self._new_id(), "card": card, "controller": owner,
                         "attach_to": None}, data)
            if self.session.broken:
                return
        player = owner if S.draw_integer(data, 0, 3, "other player") else \
            next(p for p in S.PLAYERS if p != owner)
        if S.draw_boolean(data, "flip"):
            self._apply(flip_event(player, S.pick(data, (1, 1, 2), "count"),
                                   S.draw_boolean(data, "calls")), data)
        else:
            self._apply(roll_event(player, S.pick(data, (1, 1, 2), "count"),
                                   S.pick(data, DICE_SIDES, "sides")), data)

    @needs("chance", "mana", "tap_untap_costs")
    @precondition(can_activate_scoundrel)
    @rule(owner=S.players, data=st.data())
    def activate_tavern_scoundrel(self, owner, data):
        """Tavern Scoundrel's "{1}, {T}, Sacrifice another permanent: Flip a coin.": a Tavern
        Scoundrel and a Forest (and perhaps Krark's Thumb or Pokey) under ``owner``, whose
        turn begins (CR 302.6); the Forest is tapped for {G}, then the ability is activated."""
        scoundrel, forest = self._new_id(), self._new_id()
        extra = S.pick(data, [None, *self.chance_cards((THUMB, POKEY))], "with")
        for oid, card in ((scoundrel, SCOUNDREL), (forest, "Forest"), (self._new_id(), extra)):
            if card is not None:
                self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": owner,
                             "attach_to": None}, data)
        self._apply({"type": "begin_turn", "player": owner}, data)
        self._apply({"type": "activate", "object": forest, "ability": 0}, data)
        self._apply({"type": "activate", "object": scoundrel, "ability": 0}, data)
