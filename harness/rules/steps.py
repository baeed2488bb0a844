"""State machine rules for steps, chance by several players and small actions.

A rules-area mixin of :class:`harness.running.machine.EngineMachine`, one rule per new event or field,
each behind its own capability (``harness.protocol.CAPABILITIES``), so an engine that claims none
of them sees no change:

* ``steps``: ``begin_step`` (upkeep or draw) for a player, after putting permanents with "At the
  beginning of your upkeep" abilities (:data:`STEP_CARDS`, or the engine's declared cards read
  with that template) under one of the players; the draw step mostly for a player with cards in
  their library, rarely for one without (704.5b).
* ``edict``: "target player sacrifices a creature", usually for a player with two or more creatures.
* ``put_onto_battlefield.tapped``: a creature (or a step card) put onto the battlefield tapped.
* ``damage.zero``: a damage event of 0, usually from a source with deathtouch or lifelink.
* ``chance.players``: several players flip or roll in one event, with Krark's Thumb under one or
  both of them (each Thumb applies only to its controller's flips).
* divided damage spells (``"division"`` of the cast event): declared cards of the card database
  read as "spell: divided damage", cast at one to three targets with a division drawn.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs

#: Permanents of the card database with "At the beginning of your upkeep" abilities (read by the
#: reader, played by the reference engine from their card model) that the steps rules put onto the
#: battlefield for an engine claiming ``steps``: damage to its controller, life, counters on itself
#: and on each creature, a target its controller chooses, a
#: "you may". An engine that declares its cards gets those of them it declares, and its own.
STEP_CARDS = ("Nettletooth Djinn", "Drana's Emissary", "Fretwork Colony", "Nyx-Fleece Ram", "Harbinger of Night",
              "Rushwood Elemental", "Spiteful Bully")
STEP_TEMPLATES = ("upkeep trigger", "draw step trigger")
THUMB = "Krark's Thumb"


def other_player(player: str) -> str:
    return next(p for p in S.PLAYERS if p != player)


class StepsActions(RulesArea):
    """Rules generating begin_step, edict, put tapped, 0 damage, several players' flips, divided damage."""

    # ------------------------------------------------------------ cards
    def step_cards(self) -> list[str]:
        """The cards with step abilities this engine plays: :data:`STEP_CARDS` (those it declares,
        if it declares cards) and its declared cards read with a step template."""
        declared = getattr(self.engine.info, "cards", None)
        found = [c for c in STEP_CARDS if declared is None or c in declared]
        models = self.plan.models if self.plan is not None else {}
        found += sorted(n for n, m in models.items() if n not in found
                        and any(a.template in STEP_TEMPLATES for a in m.abilities))
        return found

    def has_step_cards(self) -> bool:
        return bool(self.step_cards())

    def _steps_library(self, player: str) -> list:
        zones = self.observation.get("zones") or {}
        return list((zones.get("library") or {}).get(player) or ())

    def _steps_upkeep(self, player: str, data) -> None:
        """The upkeep of ``player``, then (half the time) their draw step: when their library is empty,
        half the time that of another player with cards in their library instead, else theirs anyway
        (704.5b: they lose)."""
        self._apply({"type": "begin_step", "step": "upkeep", "player": player}, data)
        session = self.session
        if session is None or session.broken or not S.draw_boolean(data, "draw step"):
            return
        drawing = [p for p in S.PLAYERS if self._steps_library(p)]
        if player not in drawing and drawing and S.draw_boolean(data, "another player draws"):
            player = drawing[0]
        self._apply({"type": "begin_step", "step": "draw", "player": player}, data)

    # ------------------------------------------------------------ steps
    @needs("steps")
    @rule(player=S.players, data=st.data())
    def begin_upkeep_or_draw(self, player, data):
        """The upkeep (and perhaps the draw step) of ``player`` on the board as it is."""
        self._steps_upkeep(player, data)

    @needs("steps", "triggers")
    @precondition(has_step_cards)
    @rule(owner=S.players, data=st.data())
    def upkeep_scene(self, owner, data):
        """One or two permanents with upkeep abilities under ``owner`` (sometimes one under the other
        player too), then the upkeep of ``owner`` (usually) or of the other player, whose upkeep
        must not trigger them (CR 503.1a: "your upkeep")."""
        cards = self.step_cards()
        chosen = S.draw_several(data, cards, 1, 2, "cards")
        placed = [(card, owner) for card in chosen]
        if S.draw_integer(data, 0, 3, "one for the other player") == 3:
            placed.append((S.pick(data, cards, "other's card"), other_player(owner)))
        for card, controller in placed:
            event = {"type": "put_onto_battlefield", "id": self._new_id(), "card": card, "controller": controller,
                     "attach_to": None}
            if "Aura" in (self._steps_subtypes(card)):
                live = self._live()
                if not live:
                    continue
                event["attach_to"] = self._pick(data, live, "enchanted")
            self._apply(event, data)
            if self.session.broken:
                return
        player = owner if S.draw_integer(data, 0, 3, "other player's upkeep") else other_player(owner)
        self._steps_upkeep(player, data)

    @staticmethod
    def _steps_subtypes(card: str) -> tuple:
        import cards as card_data

        return tuple(card_data.card(card).subtypes)

    # ------------------------------------------------------------ edict
    @needs("edict")
    @rule(player=S.players, data=st.data())
    def edict_a_creature(self, player, data):
        """"Target player sacrifices a creature" (CR 701.17a), three times in four for a player
        who controls two or more creatures (a choice), when there is one."""
        objects = self.observation["objects"]
        counts = {p: sum(1 for oid in self._live() if objects[oid]["controller"] == p) for p in S.PLAYERS}
        choosing = [p for p in S.PLAYERS if counts[p] >= 2]
        if choosing and player not in choosing and S.draw_integer(data, 0, 3, "a player who chooses") < 3:
            player = choosing[0]
        self._apply({"type": "edict", "player": player, "filter": "creature"}, data)

    # ------------------------------------------------------------ put tapped
    @needs("put_onto_battlefield.tapped", cards="creatures")
    @rule(controller=S.players, data=st.data())
    def put_creature_tapped(self, controller, data):
        """A creature (or a card with an upkeep ability, with ``steps``) is put onto the
        battlefield tapped (CR 110.5b)."""
        cards = list(self.plan.lists["creatures"])
        if "steps" in self.capabilities and self.step_cards() and S.draw_boolean(data, "a step card"):
            cards = [c for c in self.step_cards() if "Aura" not in self._steps_subtypes(c)] or cards
        card = S.pick(data, cards, "card")
        self._apply({"type": "put_onto_battlefield", "id": self._new_id(), "card": card, "controller": controller,
                     "attach_to": None, "tapped": True}, data)

    # ------------------------------------------------------------ 0 damage
    @needs("damage", "damage.zero")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def zero_damage(self, data):
        """A permanent deals 0 damage (CR 120.8) to a creature or a player; the source has
        deathtouch or lifelink when one on the battlefield has."""
        objects = self.observation["objects"]
        live = self._live()
        keyed = [oid for oid in live if {"deathtouch", "lifelink"} & {str(k).lower() for k in objects[oid]["keywords"]}]
        source = self._pick(data, keyed if keyed and S.draw_integer(data, 0, 3, "keyed source") else live,
                            "source")
        target = self._pick(data, live, "target") if S.draw_integer(data, 0, 2, "a creature") \
            else S.pick(data, S.PLAYERS, "player")
        self._apply({"type": "damage", "source": source, "target": target, "amount": 0}, data)

    # ------------------------------------------------------------ several players' flips and rolls
    def plays_thumb(self) -> bool:
        declared = getattr(self.engine.info, "cards", None)
        return declared is None or THUMB in declared

    @needs("chance", "chance.players")
    @rule(first=S.players, data=st.data())
    def several_players_flip(self, first, data):
        """Both players flip (or roll) in one event, ``first`` first; before it, one time in two, a
        Krark's Thumb for one or both of them (each applies only to its controller's flips, 614.1a)."""
        if self.plays_thumb():
            which = S.draw_integer(data, 0, 3, "Thumbs")  # none, first's, the other's, both
            for player, wanted in ((first, which in (1, 3)), (other_player(first), which in (2, 3))):
                if wanted and not self._steps_controls(player, THUMB):
                    self._apply({"type": "put_onto_battlefield", "id": self._new_id(), "card": THUMB,
                                 "controller": player, "attach_to": None}, data)
                    if self.session.broken:
                        return
        players = [first, other_player(first)]
        count = S.pick(data, (1, 1, 2), "count")
        if S.draw_integer(data, 0, 3, "roll") < 3:
            self._apply({"type": "flip_coins", "player": first, "players": players, "count": count,
                         "calls": S.draw_boolean(data, "calls")}, data)
        else:
            self._apply({"type": "roll_dice", "player": first, "players": players, "count": count,
                         "sides": S.pick(data, (20, 6), "sides")}, data)

    def _steps_controls(self, player: str, name: str) -> bool:
        objects = self.observation["objects"]
        return any(o["zone"] == "battlefield" and o["controller"] == player and o["name"] == name
                   for o in objects.values())

    # ------------------------------------------------------------ divided damage
    @needs("damage", cards="divided_damage_spells", declared=True)
    @rule(caster=S.players, data=st.data())
    def cast_divided_damage(self, caster, data):
        """"~ deals N damage divided as you choose among one, two, or three targets" (CR 601.2d):
        one to the spell's most targets (legal ones: live creatures, and players for "targets"), the
        damage divided among them, each at least 1 (the ``division`` field)."""
        spell = self._modelled_card(data, "divided_damage_spells")
        effect = next(e for a in self.plan.model(spell).of("spell") for e in a.effects if e.divided)
        options = sorted(self.legal_targets(effect.affected, caster))
        if effect.affected.kind in ("any", "player", "creature or player"):
            options += list(S.PLAYERS)
        if not options:
            options = list(S.PLAYERS)  # no legal target: the engine must refuse the cast
        most = min(effect.affected.count, effect.amount, len(options), 3)
        n = S.draw_integer(data, 1, most, "targets")
        targets = []
        for i in range(n):
            targets.append(S.pick(data, [o for o in options if o not in targets], f"target {i}"))
        division, left = [], effect.amount
        for i in range(n - 1):
            share = S.draw_integer(data, 1, left - (n - 1 - i), f"share {i}")
            division.append(share)
            left -= share
        division.append(left)
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": targets,
                     "division": division}, data)
