"""Triggered abilities (CR 603): when they trigger, how they go on the stack, what they do.

An ability triggers when its event happens (CR 603.2) and waits in
``game.pending_triggers``. After the event and its state-based actions (CR 704.3), the
waiting abilities are put on the stack (CR 603.3b: in APNAP order, the board's first
player being the active player; a player who controls several puts them in the order
they choose, through the decider), targets are chosen as each is put on the stack
(CR 603.3d), and the top one resolves; state-based actions are checked again, abilities
that triggered meanwhile go on the stack, and so on until the stack is empty
(:meth:`TriggeredAbilities.resolve_triggers`). Nobody casts anything in between: the
harness's next event happens once the stack is empty.

Abilities in the card pool: enters (Nekrataal, Goblin Engineer, CR 603.6a), dies
(Hangarback Walker, CR 700.4), the enters and dies abilities of the cards played from their
card model (:mod:`reference_engine.model_cards`) and "is put into a graveyard from the battlefield"
(Penumbra Umbra, CR 603.6c). Leaves-the-battlefield abilities look back in time
(CR 603.10a): they use the object as it last existed on the battlefield.

Log entries: ``{"kind": "trigger", "source": ID, "ability": "enters" | "dies" |
"put into a graveyard", "controller": P}`` when it triggers; ``{"kind":
"trigger_removed", "source": ID, "reason": ...}`` when it does nothing for lack of a
legal target (CR 603.3d, 608.2b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from harness import decisions as D
from .cards import TOKEN_DEFS
from .layers import characteristics
from .objects import BATTLEFIELD, GameObject, Trigger

if TYPE_CHECKING:
    from .game_base import GameBase
else:
    GameBase = object  # the declared base is for the type checker only (reference_engine.game_base)

#: ``Trigger.kind`` of a triggered ability read from a card model (reference_engine.model_cards).
MODEL_TRIGGER = "card model trigger"


class TriggeredAbilities(GameBase):
    """Triggered abilities, a mixin of :class:`reference_engine.game.Game`."""

    # ----------------------------------------------------------- triggering
    def trigger(self, trigger: Trigger) -> None:
        """An ability triggers (CR 603.2): it waits to be put on the stack."""
        self.pending_triggers.append(trigger)
        self.log.append({"kind": "trigger", "source": trigger.source, "ability": trigger.ability,
                         "controller": trigger.controller})

    def enters_triggers(self, obj: GameObject) -> None:
        """Enters abilities of ``obj`` trigger as it enters (CR 603.6a), copies included (CR 707.5)."""
        script = self.copiable_values(obj)[1]
        if script.enters_trigger:
            self.trigger(Trigger(obj.id, obj.controller, "enters", script.enters_trigger))
        self.model_triggers(obj, "enters", script)  # a card model's "When ~ enters" (model_cards)

    def leaves_triggers(self, obj: GameObject, to_zone: str) -> None:
        """Leaves-the-battlefield abilities of ``obj``, looking back in time (CR 603.10a).

        Called while ``obj`` is still on the battlefield, just before it moves. Penumbra
        Umbra: "When this is put into a graveyard from the battlefield, create a token
        that's a copy of enchanted creature, except the token is black" remembers which
        creature it enchanted (CR 603.6e). Hangarback Walker: "When this dies, create a
        1/1 Thopter for each +1/+1 counter on it" counts its counters as it last existed.
        """
        if to_zone != "graveyard":
            return
        script = self.copiable_values(obj)[1]
        if script.graveyard_trigger:
            self.trigger(Trigger(obj.id, obj.controller, "put into a graveyard", script.graveyard_trigger,
                                 {"enchanted": obj.attached_to}))
        if script.dies_trigger and characteristics(self, obj).is_creature:
            self.trigger(Trigger(obj.id, obj.controller, "dies", script.dies_trigger,
                                 {"counters": obj.counters.get("+1/+1", 0)}))
        if script.model is not None and characteristics(self, obj).is_creature:
            self.model_triggers(obj, "dies", script)  # its source as it last existed (model_cards)
        self.creature_dies_triggers(obj)  # "Whenever a creature dies" of the permanents watching (model_cards)

    # ------------------------------------------------------------ the stack
    def resolve_triggers(self, decider) -> None:
        """Put waiting abilities on the stack and resolve them until none is left (CR 603.3, 704.3).

        Stops if a player has lost: the game is over (CR 104.3).
        """
        while (self.pending_triggers or self.stack) and not any(p.lost for p in self.players.values()):
            if self.pending_triggers:
                self.put_triggers_on_stack(decider)
                continue
            trigger = cast(Trigger, self.stack.pop())  # a game without the stack has only triggered abilities there
            self.resolve_trigger(trigger, decider)
            self.check_state_based_actions(decider)
        if self.pending_triggers or self.stack:  # a player lost with abilities waiting: they never resolve
            self.pending_triggers = []
            self.stack = []

    def apnap_order(self) -> list[str]:
        """The players in APNAP order (CR 101.4): the board's first player is the active player
        (a game with the stack follows its active player: :mod:`reference_engine.stack`)."""
        return list(self.players)

    def put_triggers_on_stack(self, decider) -> None:
        """CR 603.3b: each player in APNAP order puts the abilities they control on the stack,
        in the order they choose (kind ``"trigger_order"``: which one goes on the stack
        next; the last one put on the stack resolves first). Targets are chosen as each is
        put on the stack (:meth:`choose_trigger_targets`)."""
        waiting, self.pending_triggers = self.pending_triggers, []
        for player in self.apnap_order():
            mine = [t for t in waiting if t.controller == player]
            while mine:
                if len(mine) == 1:
                    chosen = mine[0]
                else:
                    labels = [D.trigger_option(t.ability, t.source) for t in mine]
                    answer = decider.choose(player, D.TRIGGER_ORDER, labels)
                    if answer not in labels:
                        raise ValueError(f"decider answered {answer!r}, not one of {labels}")
                    chosen = mine[labels.index(answer)]
                mine.remove(chosen)
                if self.choose_trigger_targets(chosen, decider):
                    self.stack.append(chosen)

    def choose_trigger_targets(self, trigger: Trigger, decider) -> bool:
        """Choose the targets of ``trigger`` as it is put on the stack; False if it can't have
        them and is removed from the stack (CR 603.3d)."""
        if trigger.kind == MODEL_TRIGGER:
            return self.choose_model_targets(trigger, decider)
        if trigger.kind != "destroy nonartifact nonblack":
            return True
        options = [o.id for o in self.battlefield() if self.legal_nekrataal_target(o)]
        if not options:
            self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "no legal target"})
            return False
        choice = options[0] if len(options) == 1 else decider.choose(trigger.controller, D.TARGET, options)
        if choice not in options:
            raise ValueError(f"decider answered {choice!r}, not one of {options}")
        trigger.targets = [choice]
        return True

    def legal_nekrataal_target(self, obj: GameObject) -> bool:
        """"target nonartifact, nonblack creature" (Nekrataal)."""
        if obj.zone != BATTLEFIELD:
            return False
        ch = characteristics(self, obj)
        return ch.is_creature and "Artifact" not in ch.types and "B" not in ch.colors

    def resolve_trigger(self, trigger: Trigger, decider) -> None:
        """The ability resolves (CR 608.2): do what its kind says."""
        source_name = self.source_name(trigger.source)
        if trigger.kind == MODEL_TRIGGER:
            self.resolve_model_trigger(trigger, decider)
        elif trigger.kind == "copy enchanted creature, black":
            enchanted = trigger.info.get("enchanted")
            if enchanted is not None:
                self.create_token_copy(self.new_token_id(f"{trigger.source}.token"), enchanted, trigger.controller,
                                       trigger.source, colors=("B",))
        elif trigger.kind == "thopter per +1/+1 counter":
            definition, script = TOKEN_DEFS["Thopter"]
            for i in range(1, trigger.info.get("counters", 0) + 1):
                self.create_token(self.new_token_id(f"{trigger.source}.thopter{i}"), definition, script,
                                  trigger.controller, trigger.source)
        elif trigger.kind == "destroy nonartifact nonblack":
            target = self.objects.get(trigger.targets[0])
            if target is None or not self.legal_nekrataal_target(target):  # CR 608.2b
                self.log.append({"kind": "trigger_removed", "source": trigger.source, "reason": "illegal target"})
                return
            self.destroy([target.id], source_name, decider, cant_be_regenerated=frozenset({target.id}))
        elif trigger.kind == "search artifact to graveyard":
            self.search_artifact_to_graveyard(trigger, source_name, decider)
        else:  # pragma: no cover - every scripted kind is handled above
            raise ValueError(f"unknown triggered ability kind {trigger.kind!r}")

    def search_artifact_to_graveyard(self, trigger: Trigger, source_name: str, decider) -> None:
        """Goblin Engineer: "you may search your library for an artifact card, put it into your
        graveyard, then shuffle." The controller chooses (kind ``"search"``) one of the
        artifact cards in their library or an Omnipresent Impostor in place of one (its
        ruling), or ``"nothing"`` (a search for a card with a stated quality may fail to
        find). Not asked when there is nothing to find (:mod:`reference_engine.search`)."""
        self.search_library(trigger.controller, lambda card: "Artifact" in card.types, 1, source_name, decider,
                            "graveyard")

    def source_name(self, oid: str) -> str:
        """The name of a trigger's source as it last existed (CR 113.7a)."""
        known = self.last_known.get(oid)
        obj = self.objects.get(oid)
        if obj is not None and obj.zone == BATTLEFIELD:
            return characteristics(self, obj).name
        if known is not None:
            return known.copiable[0].name
        return obj.card.name if obj is not None else oid
