"""When several players flip in one event, the first player's Krark's Thumb applies to everyone's flips.

Rule broken: CR 614.1a and Krark's Thumb's Oracle text "If you would flip a coin, instead flip two
coins and ignore one": "you" is its controller, for each flip, whichever event asks several
players to flip (CR 705.2: only the player who flips is involved in the flip).

Bug: for an event instructing several players ("you and target opponent each flip a coin") the
engine looks up the replacement effects once, for the first player, and applies them to every
player's flips: the first player's Thumb doubles the others' coins and their own Thumbs do nothing.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def instruct_players(self, players, start, instructions, calls, decider):
        self.__dict__["_first_flipper"] = players[0]  # the bug: one lookup for the whole event
        try:
            super().instruct_players(players, start, instructions, calls, decider)
        finally:
            self.__dict__.pop("_first_flipper", None)

    def chance_replacements(self, player):
        return super().chance_replacements(self.__dict__.get("_first_flipper", player))


class MutantEngine(ReferenceEngine):
    name = "mutant-thumb_of_the_first_flipper"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
