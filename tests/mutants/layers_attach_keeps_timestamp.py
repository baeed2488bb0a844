"""An Aura that becomes attached to another creature keeps its old timestamp.

Rule broken: CR 613.7e ("An Aura, Equipment, or Fortification receives a new timestamp
each time it becomes attached to an object") and the Octopus Umbra ruling "Octopus
Umbra overwrites all previous effects that set the creature's base power and toughness
to specific values": moved onto a creature with a "base power and toughness N/N"
effect, Octopus Umbra's 8/8 must win.

Bug: ``attach_aura`` moves the Aura without giving it a new timestamp.
"""

from harness.adapters.reference import ReferenceAdapter
from reference_engine import Game, ReferenceEngine


class MutantGame(Game):
    def attach_aura(self, aura, target):
        aura.attached_to = target.id  # the bug: no new timestamp
        self.log.append({"kind": "attached", "object": aura.id, "to": target.id})


class MutantEngine(ReferenceEngine):
    name = "mutant-layers_attach_keeps_timestamp"
    game_class = MutantGame


engine = ReferenceAdapter(MutantEngine())
