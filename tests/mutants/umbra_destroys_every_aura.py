"""Umbra armor destroys every umbra Aura on the creature, not only the chosen one.

Rule broken: CR 616.1 and 616.1f (one replacement effect applies; after it the creature
is no longer being destroyed) and the ruling (Umbra Mystic 2024-06-07) "If a creature
you control is enchanted with multiple Auras that have umbra armor, and the creature
would be destroyed, one of those Auras is destroyed instead, but only one of them."

Bug: ``apply_umbra_armor`` returns every umbra Aura of the creature to destroy.
Copied from ``examples/forks/umbra_destroys_every_aura.py``.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        super().apply_umbra_armor(obj, aura_id)
        # the bug: every umbra Aura on the creature is destroyed, not just the chosen one
        return [o.split(":", 1)[1] for o in self.destruction_replacements(obj, True)]


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_destroys_every_aura"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
