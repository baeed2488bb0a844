"""The flipping player's opponent calls heads or tails.

Rule broken: CR 705.2 ("the player that flips the coin calls 'heads' or 'tails' ... Only the
player who flips the coin wins or loses the flip").

Bug: as in some kitchen-table habits, the engine asks the other player to call.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _OtherCalls:
    def __init__(self, decider, other):
        self._decider, self._other = decider, other

    def choose(self, player, kind, options):
        if kind == "coin_call":  # the bug
            return self._decider.choose(self._other, kind, options)
        return self._decider.choose(player, kind, options)

    def __getattr__(self, name):
        return getattr(self._decider, name)


class MutantGame(Game):
    def chance_instruction(self, player, start, calls, instruction, decider):
        other = next((p for p in self.players if p != player), player)
        return super().chance_instruction(player, start, calls, instruction, _OtherCalls(decider, other))


class MutantEngine(ReferenceEngine):
    name = "mutant-opponent_calls_the_coin"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
