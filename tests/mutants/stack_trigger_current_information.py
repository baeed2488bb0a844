"""Penumbra Umbra's ability makes no token when the creature it enchanted leaves the battlefield
while the ability waits on the stack.

Rule broken: CR 608.2h and 603.10a, and the Penumbra Umbra ruling (2024-11-08): "If the enchanted
creature is no longer on the battlefield when Penumbra Umbra's second ability resolves, use its
copiable values as it last existed on the battlefield."

Bug: the ability keeps last known information only for a creature that had already left when it
triggered; for one still on the battlefield then (umbra armor saved it and destroyed the Aura), it
looks the creature up on the battlefield as it resolves (current information), and finds nothing
once a response removed it. Only a game with the stack shows it: elsewhere the ability resolves
in the event that triggered it.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def resolve_trigger(self, trigger, decider):
        entry = self.resolving
        if trigger.kind == "copy enchanted creature, black" and entry is not None:
            enchanted = trigger.info.get("enchanted")
            was, obj = entry.stamps.get(enchanted), self.objects.get(enchanted)
            if was is not None and was[0] == "battlefield" and (obj is None or obj.zone != "battlefield"):
                return  # the bug: current information only
        super().resolve_trigger(trigger, decider)


class MutantEngine(ReferenceEngine):
    name = "mutant-stack_trigger_current_information"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
