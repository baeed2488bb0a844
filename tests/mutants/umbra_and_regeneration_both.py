"""Umbra armor and a regeneration shield both apply to one destruction.

Rule broken: CR 616.1 and 616.1f (one replacement effect is chosen and applied; the
event is then no longer a destruction, so the other doesn't apply), and the ruling
(Hyena Umbra 2010-06-15) "Say you control a permanent enchanted with an Aura that has
totem armor, and the enchanted permanent has gained a 'regeneration shield.' The next
time it would be destroyed, you choose whether to apply the effect of totem armor or the
effect of the regeneration shield. The other effect is unused and remains."

Bug: ``choose_replacement`` uses the regeneration shield (tapping the creature) and
then also lets the controller choose an umbra Aura to destroy.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def choose_replacement(self, obj, options, decider):
        umbra = [o for o in options if o.startswith("umbra armor:")]
        if "regeneration" in options and umbra:
            self.apply_regeneration(obj)  # the bug: both effects apply
            return super().choose_replacement(obj, umbra, decider)
        return super().choose_replacement(obj, options, decider)


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_and_regeneration_both"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
