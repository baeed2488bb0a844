"""A fork of the reference engine in which sacrificing a creature is routed through
destruction, so umbra armor saves a sacrificed creature.

Planted bug (breaks CR 701.17a and the ruling "Umbra armor has no effect if the enchanted
creature is put into a graveyard for any other reason, such as if it's sacrificed"):

    rulesfuzz run --engine examples/forks/umbra_saves_sacrificed.py:engine
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _NoChoice:
    """Sacrifice has no decider in this fork's shortcut: the first option is taken."""

    def choose(self, player, kind, options):
        return options[0]


class SacrificeDestroysGame(Game):
    def sacrifice(self, obj):
        self.destroy([obj.id], "sacrifice", _NoChoice())  # the bug: sacrifice treated as destroy


class SacrificeDestroysEngine(ReferenceEngine):
    name = "fork-umbra-saves-sacrificed"
    game_class = SacrificeDestroysGame


engine = ReferenceAdapter(SacrificeDestroysEngine())
