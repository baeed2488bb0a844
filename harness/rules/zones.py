"""Rules for zone changes by effects (capability ``zones``; CR 400.7, 701.11a, 610.3c): a
permanent is exiled, returned to its owner's hand, or exiled and returned to the battlefield
as a new object (``flicker``), steered toward the permanents whose state a zone change must
wipe: counters, marked damage, regeneration shields, combat status, Auras and Equipment
attached to them, tokens (CR 111.7, 111.8), permanents owned by the player who doesn't
control them (CR 400.3, 108.3); and declared cards of the database whose model says they do
one of those (``zone_spells``: "Exile target creature.", "Return target permanent to its
owner's hand.", "Exile target creature you control, then return it to the battlefield under
its owner's control.")."""

from __future__ import annotations

import re
from functools import cache

from hypothesis import strategies as st
from hypothesis.stateful import multiple, precondition, rule

from cards import reader
from invariants.card_abilities import card_text

from harness.generation import strategies as S
from .base import RulesArea, needs, objects

#: The zone-change event types (harness.protocol, capability ``zones``).
MOVES = ("exile", "return_to_hand", "flicker")

_ZONE_ABILITY = re.compile(r"(?:^|\n)When(?:ever)? ~ (?:enters|dies|leaves the battlefield|is put into a graveyard)")


@cache
def _zone_abilities(name) -> bool:
    """Whether the card named ``name`` has an ability that triggers on a zone change of its own
    (read from its Oracle text: "When ~ enters", "dies", "leaves the battlefield")."""
    return isinstance(name, str) and bool(_ZONE_ABILITY.search(reader.normalise(card_text(name), name)))


class ZoneActions(RulesArea):
    """exile, return_to_hand and flicker on any object of the example, or on a live permanent with
    state a zone change wipes; zone spells of declared cards."""

    def _permanents(self) -> list[str]:
        objects_now = self.observation["objects"]
        return [oid for oid, o in objects_now.items() if o.get("zone") == "battlefield"]

    def has_permanent(self) -> bool:
        return self.session is not None and bool(self._permanents())

    def _returns_with_a_choice(self, oid: str) -> bool:
        """A permanent whose return to the battlefield needs a choice the flicker event doesn't give
        (an Aura: what it enchants, CR 303.4f; a card that may enter as a copy, 707.5): the engine
        may decline it, so the generator doesn't flicker it."""
        o = self.observation["objects"].get(oid)
        if o is None:
            return False
        return (not o.get("token") and "Aura" in (o.get("subtypes") or ())) or o.get("name") in S.COPY_CREATURES

    @staticmethod
    def _wiped(o: dict) -> bool:
        """Whether a zone change must wipe something of observed permanent ``o`` (CR 400.7), or puts it
        somewhere only its owner's zones tell apart (400.3)."""
        return bool(o.get("counters") or o.get("damage") or o.get("regeneration_shields") or o.get("combat")
                    or o.get("token") or o.get("owner") != o.get("controller"))

    @needs("zones")
    @rule(obj=objects, kind=st.sampled_from(MOVES), data=st.data())
    def move_object(self, obj, kind, data):
        """Any object of the example, on the battlefield or not (refused off it, CR 400.7)."""
        event = {"type": kind, "object": obj}
        if kind == "flicker":
            if self._returns_with_a_choice(obj):
                return
            event["id"] = self._new_id()
        self._apply(event, data)

    def _of_interest(self, data, options: list[str], objects_now: dict) -> list[str]:
        """move_permanent's permanents to pick from: one time in five each, those with state the move
        must wipe, tokens, those with an ability about their own zone changes, those others are
        attached to (when there are some), else every option."""
        attached = sorted({o.get("attached_to") for o in objects_now.values() if o.get("zone") == "battlefield"}
                          & set(options))
        wiped = [oid for oid in options if self._wiped(objects_now[oid])]
        # A card with an ability about its own zone changes (enters, dies, leaves the battlefield:
        # CR 603.6a, 700.4, 603.6c): a flicker triggers one, an exile must trigger no dies ability.
        abilities = [oid for oid in options if _zone_abilities(objects_now[oid].get("name"))]
        tokens = [oid for oid in options if objects_now[oid].get("token")]  # CR 111.7, 111.8
        tier = S.draw_integer(data, 0, 4, "permanent of interest")
        if tier == 1 and wiped:
            return wiped
        if tier == 2 and tokens:
            return tokens
        if tier == 3 and abilities:
            return abilities
        if tier == 4 and attached:  # Auras (704.5m) and Equipment (704.5n) left behind
            return attached
        return options

    @needs("zones")
    @precondition(has_permanent)
    @rule(target=objects, kind=st.sampled_from(MOVES), data=st.data())
    def move_permanent(self, kind, data):
        """A live permanent, often one with state the move must wipe or one others are attached to."""
        objects_now = self.observation["objects"]
        options = [oid for oid in self._permanents() if kind != "flicker" or not self._returns_with_a_choice(oid)]
        if not options:
            return multiple()
        oid = self._pick(data, self._of_interest(data, options, objects_now), "permanent")
        event = {"type": kind, "object": oid}
        new_id = None
        if kind == "flicker":
            new_id = event["id"] = self._new_id()
        self._apply(event, data)
        return new_id if new_id is not None else multiple()

    @needs(cards="zone_spells")
    @precondition(has_permanent)
    @rule(caster=S.players, data=st.data())
    def cast_zone_spell(self, caster, data):
        """A declared spell that exiles, returns to hand or flickers (its model's one effect), on a
        target legal for it when there is one."""
        spell = self._card(data, "zone_spells")
        model = self.plan.model(spell)
        effect = model.of("spell")[0].effects[0] if model is not None and model.of("spell") else None
        targets: list[str] = []
        if effect is not None and effect.affected.scope == "target":
            legal = self.legal_targets(effect.affected, caster)
            if effect.action == "flicker":
                legal = [oid for oid in legal if not self._returns_with_a_choice(oid)]
            pool = legal or self._permanents()
            targets = [self._pick(data, pool, "target")]
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": targets}, data)
