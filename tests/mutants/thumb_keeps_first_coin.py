"""Krark's Thumb: the engine keeps the first coin itself instead of letting the player choose.

Rule broken: CR 614.1a and Krark's Thumb's Oracle text "flip two coins and ignore one": the
player who flips chooses which one to ignore.

Bug: ``flip`` never asks (decider kind ``coin_kept``) and always keeps the first coin.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _FirstCoin:
    def __init__(self, decider):
        self._decider = decider

    def choose(self, player, kind, options):
        if kind == "coin_kept":  # the bug
            return self._first
        return self._decider.choose(player, kind, options)

    def flip_coin(self, player):
        result = self._decider.flip_coin(player)
        if not hasattr(self, "_first"):
            self._first = result
        return result

    def __getattr__(self, name):
        return getattr(self._decider, name)


class MutantGame(Game):
    def flip(self, player, event, call, instruction, decider):
        return super().flip(player, event, call, instruction, _FirstCoin(decider))


class MutantEngine(ReferenceEngine):
    name = "mutant-thumb_keeps_first_coin"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
