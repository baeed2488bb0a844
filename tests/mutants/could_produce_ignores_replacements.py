""""Could produce" ignores replacement effects.

Rule broken: CR 106.7: the types a permanent could produce are those its abilities would
produce "taking into account any applicable replacement effects in any possible order".
Under Contamination an opponent's Forest could produce only {B}, so Fellwar Stone adds {B}.

Bug: ``types_after_replacements`` returns the types before replacement effects.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def types_after_replacements(self, obj, types):
        return types  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-could_produce_ignores_replacements"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
