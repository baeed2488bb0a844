"""A copy of a creature cast with X uses that X: a token copy of Hangarback Walker (X = 3) enters with three counters.

Rule broken: CR 107.3m (the enters-with ability uses the X of *the spell that became
that object*; a copy never was that spell) and the Penumbra Umbra ruling (2024-11-08):
"If the copied creature has {X} in its mana cost, X is considered to be 0."

Bug: ``enters_with_counters`` of a copy reads the X paid for the original (the engine
keeps "X paid" on the object and the copy inherits it).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def enters_with_counters(self, obj):
        original = self.objects.get(obj.copy_of) if obj.copy_of else None
        if original is not None and obj.spell_x == 0:
            obj.spell_x = original.spell_x  # the bug: the copy inherits the X paid for the original
        super().enters_with_counters(obj)


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_copy_keeps_x"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
