"""A name check compares printed names only: Omnipresent Impostor shares no name with Grizzly Bears.

Rule broken: CR 201.2a and Omnipresent Impostor's ruling 2024-11-08 "Omnipresent Impostor
has the names of all cards".

Bug: ``share_a_name`` compares the two objects' ``name`` strings, so Bile Blight on a
Grizzly Bears misses the Impostor (and Bile Blight on the Impostor misses everything else).
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine
from reference_engine.layers import characteristics


class MutantGame(Game):
    def share_a_name(self, a, b):
        return characteristics(self, a).name == characteristics(self, b).name  # the bug


class MutantEngine(ReferenceEngine):
    name = "mutant-name_check_printed_name_only"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
