"""With several umbra Auras, the engine destroys the newest one without asking anybody.

Rule broken: CR 616.1 and 616.1e (the affected object's controller chooses which
replacement effect applies; any of them may be chosen) and the ruling (Umbra Mystic
2024-06-07) "If a creature you control is enchanted with multiple Auras that have umbra
armor ... you choose which Aura to destroy."

Bug: ``choose_replacement`` takes the last option (the umbra Aura with the latest
timestamp, or the regeneration shield) instead of asking the creature's controller.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def choose_replacement(self, obj, options, decider):
        return options[-1]  # the bug: no decision asked


class MutantEngine(ReferenceEngine):
    name = "mutant-engine_picks_aura"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
