"""The controller is asked which umbra Aura to destroy, but the oldest one is destroyed.

Rule broken: CR 616.1 (the chosen replacement effect is the one applied) and the ruling
(Umbra Mystic 2024-06-07) "... you choose which Aura to destroy."

Bug: ``apply_umbra_armor`` ignores the Aura it is given and destroys the first umbra
Aura in timestamp order.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        umbra = [o.split(":", 1)[1] for o in self.destruction_replacements(obj, True)]
        oldest = umbra[0] if umbra else aura_id  # the bug: the answer is not used
        return super().apply_umbra_armor(obj, oldest)


class MutantEngine(ReferenceEngine):
    name = "mutant-chosen_aura_ignored"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
