"""Umbra armor taps the creature it saves, as regeneration does.

Rule broken: CR 702.89a, and the ruling (Hyena Umbra 2010-06-15) "Totem armor's effect is
not regeneration. Specifically, if totem armor's effect is applied, the enchanted
permanent does not become tapped and is not removed from combat as a result."

Bug: ``apply_umbra_armor`` copies regeneration's "tap it" step (CR 701.15a).
Copied from ``examples/forks/umbra_taps_creature.py``.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        instead = super().apply_umbra_armor(obj, aura_id)
        if not obj.tapped:  # the bug
            obj.tapped = True
            self.log.append({"kind": "tapped", "object": obj.id})
        return instead


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_taps_creature"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
