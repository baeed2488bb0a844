"""Pokey's replacement effects are applied without asking, as if they were mandatory.

Rule broken: CR 616.1 and the ruling (Pokey, the Scallywagg 2024-11-08) "Each time a
spell or ability instructs you to flip a coin, you *may* apply Pokey's second ability".

Bug: the engine applies an optional replacement effect whenever it is the only one.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _Eager:
    """Answers the player's "apply Pokey or not?" question itself (the bug)."""

    def __init__(self, decider):
        self._decider = decider

    def choose(self, player, kind, options):
        if kind == "replacement_effect" and len(options) == 2 and options[1] == "none":
            return options[0]
        return self._decider.choose(player, kind, options)

    def __getattr__(self, name):
        return getattr(self._decider, name)


class MutantGame(Game):
    def apply_chance_replacements(self, player, event, decider):
        return super().apply_chance_replacements(player, event, _Eager(decider))


class MutantEngine(ReferenceEngine):
    name = "mutant-pokey_not_optional"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
