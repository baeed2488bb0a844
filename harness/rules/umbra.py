"""Rules for umbra armor (CR 702.89): umbra Auras put onto the battlefield, attached,
and destroyed together with the permanent they enchant."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs, objects


class UmbraActions(RulesArea):
    """Umbra Auras on live creatures and on any object id; attach; destroy both at once."""

    @needs("umbra_armor", cards="umbra_auras")
    @precondition(RulesArea.has_creature)
    @rule(target=objects, controller=S.players, data=st.data())
    def put_umbra_on_creature(self, controller, data):
        card = self._card(data, "umbra_auras")
        host = S.pick(data, self._live(), "host")
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    @needs("destroy")
    @needs("umbra_armor")
    @precondition(RulesArea.has_umbra_aura)
    @rule(data=st.data())
    def destroy_with_its_aura(self, data):
        """One effect destroys a permanent and its umbra Aura, in either order (Planar Cleansing;
        ruling Hyena Umbra 2010-06-15: the Aura is destroyed "in two different ways at the same time")."""
        aura = S.pick(data, self._live_umbra_auras(), "aura")
        host = self.observation["objects"][aura]["attached_to"]
        targets = data.draw(st.permutations([aura, host]), label="targets")
        self._apply({"type": "destroy", "targets": targets, "cant_be_regenerated": S.draw_boolean(data)}, data)

    @needs("umbra_armor", cards="umbra_auras")
    @rule(target=objects, host=objects, controller=S.players, data=st.data())
    def put_umbra(self, host, controller, data):
        card = self._card(data, "umbra_auras")
        oid = self._new_id()
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    @needs("umbra_armor")
    @rule(aura=objects, to=objects, data=st.data())
    def attach(self, aura, to, data):
        if self._penumbra_would_copy_a_legend(aura, to):
            return
        self._apply({"type": "attach", "aura": aura, "to": to}, data)

    @needs("umbra_armor")
    @precondition(RulesArea.has_aura)
    @rule(data=st.data())
    def attach_live(self, data):
        objects = self.observation["objects"]
        aura = self._pick_interesting(data, self._live_auras(), lambda o: o.get("name") == "Octopus Umbra", "aura")
        hosts = [oid for oid in self._live() if oid != objects[aura].get("attached_to")
                 and not self._penumbra_would_copy_a_legend(aura, oid)]
        if hosts:
            # Moving a setting Aura onto a creature with a later setting effect shows its new timestamp.
            host = self._pick_interesting(
                data, hosts, lambda o: any(e.get("layer") == "7b" for e in o.get("pt_effects") or ()), "to")
            self._apply({"type": "attach", "aura": aura, "to": host}, data)
