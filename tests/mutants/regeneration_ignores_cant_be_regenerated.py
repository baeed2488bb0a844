"""A regeneration shield saves a creature that "can't be regenerated".

Rule broken: CR 701.15c ("Effects that say that a permanent can't be regenerated ...
cause regeneration shields to not be applied") and Wrath of God's Oracle text
("Destroy all creatures. They can't be regenerated.").

Bug: ``destruction_replacements`` ignores the "can't be regenerated" flag.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def destruction_replacements(self, obj, cant_be_regenerated):
        return super().destruction_replacements(obj, False)  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-regeneration_ignores_cant_be_regenerated"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
