"""Rules for destruction and damage: destroy (CR 701.7), damage and deathtouch (CR 120,
702.2), sacrifice (CR 701.17) and regeneration (CR 701.15)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs, objects


class DestructionActions(RulesArea):
    """Destroy and damage spells and effects, on live creatures and on any object id."""

    # Casting a spell of a list needs no claim (the card is the engine's declaration; the
    # curated pool's spells are kept in their lists only when "destroy" / "damage" is claimed).
    @needs(cards="destroy_spells")
    @precondition(RulesArea.has_creature)
    @rule(caster=S.players, data=st.data())
    def cast_destroy_on_creature(self, caster, data):
        spell = self._card(data, "destroy_spells")
        victim = S.pick(data, self._legal_victims(spell, caster), "victim")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    def _legal_victims(self, spell: str, caster: str) -> list[str]:
        """The live creatures a spell's model lets it target (all live creatures for a card of
        the curated pool, or when none is legal: the engine must then refuse it)."""
        model = self.plan.model(spell) if self.plan is not None else None
        if model is None:
            return self._live()
        affected = model.of("spell")[0].effects[0].affected
        if affected.kind in ("player", "opponent"):
            return list(S.PLAYERS)
        return sorted(self.legal_targets(affected, caster)) or self._live()

    @needs(cards="damage_spells")
    @precondition(RulesArea.has_creature)
    @rule(caster=S.players, data=st.data())
    def cast_damage_on_creature(self, caster, data):
        spell = self._card(data, "damage_spells")
        victim = S.pick(data, self._legal_victims(spell, caster), "victim")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("deathtouch")
    @precondition(RulesArea.has_deathtouch)
    @rule(data=st.data())
    def deathtouch_damage(self, data):
        """A deathtouch creature deals damage to a creature on the battlefield (CR 702.2b, 704.5h).

        Three times in four (shrinking goes there) the victim is one that only deathtouch
        destroys (:meth:`~harness.generation.targeting.Targeting.survives_damage`: not indestructible,
        toughness left above 1) and the amount is less than the toughness it has left, so
        704.5h, not 704.5g, is what destroys it; otherwise any creature and 1..4 damage.
        """
        source = self._pick(data, self._live("deathtouch"), "source")
        victims = self._live()
        objects = self.observation["objects"]
        focused = [oid for oid in victims if self.survives_damage(objects[oid])]
        if focused and S.draw_integer(data, 0, 3, "only deathtouch destroys it") < 3:
            victim = self._pick(data, focused, "victim")
            amount = S.draw_integer(data, 1, self.toughness_left(objects[victim]) - 1, "amount")
        else:
            victim = self._pick(data, victims, "victim")
            amount = S.draw_integer(data, 1, 4, "amount")
        self._apply({"type": "damage", "source": source, "target": victim, "amount": amount}, data)

    @needs(cards="destroy_spells")
    @rule(victim=objects, caster=S.players, data=st.data())
    def cast_destroy(self, victim, caster, data):
        spell = self._card(data, "destroy_spells")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs(cards="sweepers")
    @rule(caster=S.players, data=st.data())
    def cast_wrath_of_god(self, caster, data):
        self._apply({"type": "cast", "card": self._card(data, "sweepers"), "controller": caster, "targets": []},
                    data)

    @needs(cards="damage_spells")
    @rule(victim=st.one_of(objects, S.players), caster=S.players, data=st.data())
    def cast_damage(self, victim, caster, data):
        spell = self._card(data, "damage_spells")
        self._apply({"type": "cast", "card": spell, "controller": caster, "targets": [victim]}, data)

    @needs("damage")
    @rule(source=objects, victim=objects, amount=st.integers(1, 6), data=st.data())
    def deal_damage(self, source, victim, amount, data):
        self._apply({"type": "damage", "source": source, "target": victim, "amount": amount}, data)

    @needs("destroy")
    @rule(victims=st.lists(objects, min_size=1, max_size=3, unique=True), cant=st.booleans(), data=st.data())
    def destroy(self, victims, cant, data):
        self._apply({"type": "destroy", "targets": victims, "cant_be_regenerated": cant}, data)

    @needs("sacrifice")
    @rule(obj=objects, data=st.data())
    def sacrifice(self, obj, data):
        self._apply({"type": "sacrifice", "object": obj}, data)

    @needs("regeneration")
    @rule(obj=objects, data=st.data())
    def activate_regeneration(self, obj, data):
        self._apply({"type": "activate_regeneration", "object": obj}, data)
