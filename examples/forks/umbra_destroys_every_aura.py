"""A fork of the reference engine in which umbra armor destroys every umbra Aura on the
creature instead of the one its controller chooses.

Planted bug (breaks CR 616.1 and the ruling "one of those Auras is destroyed instead,
but only one of them"):

    rulesfuzz run --engine examples/forks/umbra_destroys_every_aura.py:engine
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class EveryAuraGame(Game):
    def apply_umbra_armor(self, obj, aura_id):
        super().apply_umbra_armor(obj, aura_id)
        # the bug: every umbra Aura on the creature is destroyed, not just the chosen one
        return [o for o in self.destruction_replacements(obj, True) for o in [o.split(":", 1)[1]]]


class EveryAuraEngine(ReferenceEngine):
    name = "fork-umbra-destroys-every-aura"
    game_class = EveryAuraGame


engine = ReferenceAdapter(EveryAuraEngine())
