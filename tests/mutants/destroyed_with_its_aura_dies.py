"""An effect that destroys a creature and its umbra Aura at the same time kills the creature.

Rule broken: CR 702.89a and 701.7a, and the ruling (Hyena Umbra 2010-06-15) "If a spell
or ability (such as Planar Cleansing) would destroy both an Aura with totem armor and
the permanent it's enchanting at the same time, totem armor's effect will save the
enchanted permanent from being destroyed. Instead, the spell or ability will destroy
the Aura in two different ways at the same time, which is the same as destroying it
just once."

Bug: ``destruction_replacements`` leaves out umbra Auras that the same effect is
destroying, as if an Aura "already on its way to the graveyard" couldn't apply.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    _destroying: frozenset = frozenset()

    def destroy(self, targets, by, decider, cant_be_regenerated=frozenset()):
        outer = self._destroying
        self._destroying = outer | frozenset(targets)
        try:
            super().destroy(targets, by, decider, cant_be_regenerated)
        finally:
            self._destroying = outer

    def destruction_replacements(self, obj, cant_be_regenerated):
        options = super().destruction_replacements(obj, cant_be_regenerated)
        # the bug: an Aura the effect also destroys no longer counts
        return [o for o in options if not (o.startswith("umbra armor:") and o.split(":", 1)[1] in self._destroying)]


class MutantEngine(ReferenceEngine):
    name = "mutant-destroyed_with_its_aura_dies"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
