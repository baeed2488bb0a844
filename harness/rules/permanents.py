"""Rules for permanents entering and changing: creatures and legends put onto the
battlefield (CR 704.5j), +N/+N until end of turn (CR 613.4c), combat status (CR 506.4)
and the cleanup step (CR 514.2)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from harness.generation import strategies as S
from .base import RulesArea, needs, objects


class PermanentActions(RulesArea):
    """Creatures and legends entering, P/T until end of turn, combat and cleanup."""

    @needs("pt_until_end_of_turn")
    @rule(obj=objects, n=st.integers(-4, 3), data=st.data())
    def modify_pt(self, obj, n, data):
        self._apply({"type": "modify_pt", "object": obj, "power": n, "toughness": n}, data)

    @needs(cards="pump_spells")
    @rule(obj=objects, caster=S.players, data=st.data())
    def cast_giant_growth(self, obj, caster, data):
        self._apply({"type": "cast", "card": self._card(data, "pump_spells"), "controller": caster,
                     "targets": [obj]}, data)

    @needs(cards="creatures")
    @rule(target=objects, controller=S.players, data=st.data())
    def put_creature(self, controller, data):
        card = self._card(data, "creatures")
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": None}, data)
        return oid

    @needs("legend_rule", cards="legends")
    @rule(target=objects, controller=S.players, data=st.data())
    def put_legend(self, controller, data):
        """A legend enters; for an engine that declares its cards, half the time one of the
        same name as a legend a player controls, under that player (the pair CR 704.5j is about)."""
        oid = self._new_id()
        card = self._card(data, "legends")
        if self.plan is not None and self.plan.declared_cards is not None and self.session is not None:
            objects = self.observation["objects"]
            held = sorted(oid_ for oid_, o in objects.items() if o["zone"] == "battlefield"
                          and "Legendary" in (o.get("supertypes") or ()) and o.get("name") in self.plan.lists["legends"])
            if held and S.draw_boolean(data, "same name"):
                other = objects[S.pick(data, held, "legend")]
                card, controller = other["name"], other.get("controller", controller)
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": None}, data)
        return oid

    @needs("combat_status")
    @rule(obj=objects, status=st.sampled_from(S.COMBAT), data=st.data())
    def set_combat(self, obj, status, data):
        self._apply({"type": "set_combat", "object": obj, "status": status}, data)

    @needs("cleanup")
    @rule(data=st.data())
    def cleanup(self, data):
        self._apply({"type": "cleanup"}, data)
