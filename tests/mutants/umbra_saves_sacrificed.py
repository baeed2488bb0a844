"""Sacrifice is routed through destruction, so umbra armor saves a sacrificed creature.

Rule broken: CR 701.17a (sacrifice moves the permanent directly to the graveyard; it is
not destruction, 701.7b), and the ruling (Indrik Umbra 2024-06-07) "Umbra armor has no
effect if the enchanted creature is put into a graveyard for any other reason, such as
if it's sacrificed".

Bug: ``sacrifice`` calls ``destroy``, taking the first replacement option without
asking. Copied from ``examples/forks/umbra_saves_sacrificed.py``.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class _NoChoice:
    """Sacrifice has no decider in this fork's shortcut: the first option is taken."""

    def choose(self, player, kind, options):
        return options[0]


class MutantGame(Game):
    def sacrifice(self, obj):
        self.destroy([obj.id], "sacrifice", _NoChoice())  # the bug: sacrifice treated as destroy


class MutantEngine(ReferenceEngine):
    name = "mutant-umbra_saves_sacrificed"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
