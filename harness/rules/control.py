"""Rules for control changes (CR 613.1b): a player gains control of a permanent, so boards
reach permanents whose owner is not their controller, and the rules that ask "whose":
graveyards (CR 404.1), tokens (CR 111.2), choices (CR 616.1, 704.5j), "enchant creature
you control" (Penumbra Umbra) and conditional abilities (Dog Umbra, Umbra Mystic)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import rule

from harness.generation import strategies as S
from .base import RulesArea, needs, objects


class ControlActions(RulesArea):
    """The ``change_control`` event: any object of the example (refused off the battlefield),
    or, more often, a permanent on the battlefield given to the player who doesn't control it."""

    @needs("control_change")
    @rule(obj=objects, controller=S.players, data=st.data())
    def change_control(self, obj, controller, data):
        self._apply({"type": "change_control", "object": obj, "controller": controller}, data)

    @needs("control_change")
    @rule(data=st.data())
    def steal_permanent(self, data):
        objects_now = self.observation.get("objects", {})
        live = sorted(oid for oid, o in objects_now.items() if o.get("zone") == "battlefield")
        if not live:
            return
        oid = S.pick(data, live, "permanent")
        current = objects_now[oid].get("controller")
        others = [p for p in S.PLAYERS if p != current] or list(S.PLAYERS)
        self._apply({"type": "change_control", "object": oid, "controller": S.pick(data, others, "controller")},
                    data)
