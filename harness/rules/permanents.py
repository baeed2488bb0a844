"""Rules for permanents entering and changing: creatures and legends put onto the
battlefield (CR 704.5j), +N/+N until end of turn (CR 613.4c), combat status (CR 506.4)
and the cleanup step (CR 514.2)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from .. import strategies as S
from .base import RulesArea, needs, objects


class PermanentRules(RulesArea):
    """Creatures and legends entering, P/T until end of turn, combat and cleanup."""

    @needs("pt_until_end_of_turn")
    @rule(obj=objects, n=st.integers(-4, 3), data=st.data())
    def modify_pt(self, obj, n, data):
        self._apply({"type": "modify_pt", "object": obj, "power": n, "toughness": n}, data)

    @needs("pt_until_end_of_turn", cards="pump_spells")
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
        oid = self._new_id()
        card = self._card(data, "legends")
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
