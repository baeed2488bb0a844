"""Rules for layers, counters and copies: CR 613 (layers 7b, 7c, 7d in timestamp order),
122 (counters), 707 (copies), 107.3m (X), 603 (triggered abilities).

Targets are live permanents, so setting effects, counters, switches and copies pile up
on the same creatures.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import multiple, precondition, rule

from .. import strategies as S
from .base import RulesArea, needs, objects


class LayersRules(RulesArea):
    """Counters, P/T setting and switching, anthems, Octopus and Penumbra Umbra, copies, tokens."""

    @needs("counters")
    @precondition(RulesArea.has_creature)
    @rule(kind=st.sampled_from(S.COUNTER_KINDS), amount=st.integers(1, 3), data=st.data())
    def add_counters(self, kind, amount, data):
        victim = self._pick_interesting(
            data, self._live(), lambda o: bool({"+1/+1", "-1/-1"} & set(o.get("counters") or ())), "victim")
        counters = self.session.observation["objects"][victim].get("counters") or {}
        opposite = "-1/-1" if "+1/+1" in counters else "+1/+1" if "-1/-1" in counters else None
        if opposite and data.draw(st.booleans(), label="annihilate"):  # reach CR 704.5q with N < both counts
            kind = opposite
        self._apply({"type": "add_counters", "object": victim, "kind": kind, "amount": amount}, data)

    @needs("layers")
    @precondition(RulesArea.has_creature)
    @rule(power=st.integers(0, 4), toughness=st.integers(0, 4), data=st.data())
    def set_base_pt(self, power, toughness, data):
        victim = self._pick(data, self._live(), "victim")
        self._apply({"type": "set_base_pt", "object": victim, "power": power, "toughness": toughness}, data)

    @needs("layers")
    @precondition(RulesArea.has_creature)
    @rule(data=st.data())
    def switch_pt(self, data):
        victim = self._pick(data, self._live(), "victim")
        self._apply({"type": "switch_pt", "object": victim}, data)

    @needs("layers")
    @rule(controller=S.players, pt=st.sampled_from(S.ANTHEMS), data=st.data())
    def anthem(self, controller, pt, data):
        self._apply({"type": "create_effect", "affects": "creatures_you_control", "controller": controller,
                     "power": pt[0], "toughness": pt[1]}, data)

    @needs("layers")
    @needs("umbra_armor")
    @precondition(RulesArea.has_creature)
    @rule(target=objects, card=st.sampled_from(S.LAYERS_AURAS), controller=S.players, data=st.data())
    def put_layers_aura(self, card, controller, data):
        """Octopus Umbra (a setting effect, layer 7b) on any creature, or Penumbra Umbra
        ("enchant creature you control") on a creature, with that creature's controller."""
        objects = self.session.observation["objects"]
        oid = self._new_id()
        hosts = [o for o in self._live() if not self._penumbra_would_copy_a_legend("Penumbra Umbra", o)]
        if card == "Penumbra Umbra" and "copies" in self.capabilities and hosts:
            host = self._pick_interesting(data, hosts, self.worth_copying, "host")
            controller = objects[host].get("controller", controller)
        else:
            card, host = "Octopus Umbra", self._pick(data, self._live(), "host")
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    def has_layers_creature(self) -> bool:
        return bool({"copies", "x_costs", "triggers"} & self.capabilities)

    @precondition(has_layers_creature)
    @rule(target=objects, card=st.sampled_from(S.LAYERS_CREATURES), controller=S.players, x=st.integers(0, 3),
          data=st.data())
    def put_layers_creature(self, card, controller, x, data):
        """A creature that enters as a copy (Clone, Mirror Image: CR 707.5), one cast with X
        (CR 107.3m), or one with an enters ability (CR 603.6a)."""
        oid = self._new_id()
        event = {"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                 "attach_to": None}
        if card in S.COPY_CREATURES and "copies" in self.capabilities and self._live() \
                and data.draw(st.integers(0, 5), label="copy"):
            event["copy_of"] = self._pick_interesting(data, self._live(), self.worth_copying, "copy_of")
        if card in S.X_CREATURES and "x_costs" in self.capabilities:
            event["x"] = x
        self._apply(event, data)
        return oid

    @needs("copies")
    @rule(target=objects, spell=st.sampled_from(S.TOKEN_SPELLS), caster=S.players, data=st.data())
    def cast_token_spell(self, spell, caster, data):
        """Cackling Counterpart (a token copy of a creature its caster controls, CR 707.2) or
        Raise the Alarm (two Soldier tokens the spell defines, CR 111.3)."""
        if spell == "Cackling Counterpart" and self._live():
            original = self._pick_interesting(data, self._live(), self.worth_copying, "target")
            caster = self.session.observation["objects"][original].get("controller", caster)
            ids = [self._new_id()]
            event = {"type": "cast", "card": spell, "controller": caster, "targets": [original], "token_ids": ids}
        else:
            ids = [self._new_id(), self._new_id()]
            event = {"type": "cast", "card": "Raise the Alarm", "controller": caster, "targets": [], "token_ids": ids}
        self._apply(event, data)
        return multiple(*ids)
