"""Rules for layers, counters and copies: CR 613 (layers 7b, 7c, 7d in timestamp order),
122 (counters), 707 (copies), 107.3m (X), 603 (triggered abilities).

Targets are live permanents, so setting effects, counters, switches and copies pile up
on the same creatures.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import multiple, precondition, rule

from harness.generation import strategies as S
from .base import RulesArea, needs, objects


class LayersActions(RulesArea):
    """Counters, P/T setting and switching, anthems, Octopus and Penumbra Umbra, copies, tokens."""

    @needs("counters")
    @precondition(RulesArea.has_creature)
    @rule(kind=st.sampled_from(S.COUNTER_KINDS), amount=st.integers(1, 3), data=st.data())
    def add_counters(self, kind, amount, data):
        victim = self._pick_interesting(
            data, self._live(), lambda o: bool({"+1/+1", "-1/-1"} & set(o.get("counters") or ())), "victim")
        counters = self.observation["objects"][victim].get("counters") or {}
        kinds = self.plan.counter_kinds if self.plan is not None else S.COUNTER_KINDS
        if kind not in kinds:  # an engine that models only some kinds (EngineInfo.counter_kinds)
            kind = S.pick(data, kinds, "kind")
        opposite = "-1/-1" if "+1/+1" in counters else "+1/+1" if "-1/-1" in counters else None
        if opposite not in kinds:
            opposite = None
        if opposite and S.draw_boolean(data, "annihilate"):  # reach CR 704.5q with N < both counts
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

    @needs("layers", "umbra_armor", cards="layers_auras")
    @precondition(RulesArea.has_creature)
    @rule(target=objects, controller=S.players, data=st.data())
    def put_layers_aura(self, controller, data):
        """Octopus Umbra (a setting effect, layer 7b) on any creature, or Penumbra Umbra
        ("enchant creature you control") on a creature, with that creature's controller."""
        card = self._card(data, "layers_auras")
        objects = self.observation["objects"]
        oid = self._new_id()
        hosts = [o for o in self._live() if not self._penumbra_would_copy_a_legend("Penumbra Umbra", o)]
        if card == "Penumbra Umbra" and hosts:
            host = self._pick_interesting(data, hosts, self.worth_copying, "host")
            controller = objects[host].get("controller", controller)
        else:
            if card == "Penumbra Umbra":  # no creature it may enchant: fall back on the other Aura, if any
                card = self.plan.lists["layers_auras"][0]
                if card == "Penumbra Umbra":
                    return multiple()
            host = self._pick(data, self._live(), "host")
        self._apply({"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                     "attach_to": host}, data)
        return oid

    @needs(cards="layers_creatures")
    @rule(target=objects, controller=S.players, x=st.integers(0, 3), data=st.data())
    def put_layers_creature(self, controller, x, data):
        """A creature that enters as a copy (Clone, Mirror Image: CR 707.5), one cast with X
        (CR 107.3m), or one with an enters ability (CR 603.6a)."""
        card = self._card(data, "layers_creatures")
        oid = self._new_id()
        event = {"type": "put_onto_battlefield", "id": oid, "card": card, "controller": controller,
                 "attach_to": None}
        if card in S.COPY_CREATURES and self._live() \
                and S.draw_integer(data, 0, 5, "copy"):
            event["copy_of"] = self._pick_interesting(data, self._live(), self.worth_copying, "copy_of")
        if card in S.X_CREATURES:
            event["x"] = x
        self._apply(event, data)
        return oid

    @needs("tokens", cards="token_spells")
    @rule(target=objects, caster=S.players, data=st.data())
    def cast_token_spell(self, caster, data):
        """Cackling Counterpart (a token copy of a creature its caster controls, CR 707.2) or
        Raise the Alarm (two Soldier tokens the spell defines, CR 111.3)."""
        spell = self._card(data, "token_spells")
        if spell == "Cackling Counterpart" and self._live():
            original = self._pick_interesting(data, self._live(), self.worth_copying, "target")
            caster = self.observation["objects"][original].get("controller", caster)
            ids = [self._new_id()]
            event = {"type": "cast", "card": spell, "controller": caster, "targets": [original], "token_ids": ids}
        elif "Raise the Alarm" in self.plan.lists["token_spells"]:
            ids = [self._new_id(), self._new_id()]
            event = {"type": "cast", "card": "Raise the Alarm", "controller": caster, "targets": [], "token_ids": ids}
        else:
            return multiple()
        self._apply(event, data)
        return multiple(*ids)
