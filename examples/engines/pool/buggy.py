"""pool, with five planted bugs of different kinds (see README.md beside this file).

The clean engine (``engine.py``) is untouched: each bug is a small override in
:class:`BuggyGame`, with a comment naming the rule it breaks. ``engine`` here is the
buggy engine; :data:`BUGS` names the bugs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _load_clean():
    modname = "_pool_engine_engine"
    if modname not in sys.modules:
        spec = importlib.util.spec_from_file_location(modname, Path(__file__).with_name("engine.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    return sys.modules[modname]


clean = _load_clean()

BUGS = {
    "legend_rule_missing": "704.5j: two legends of one name under one controller both stay (and legend_rule "
                           "is not claimed)",
    "equipment_bonus_sticks": "301.5, 611.3a: a creature an Equipment is moved away from keeps its bonus",
    "pyroclasm_opponents_only": "Pyroclasm's 'each creature': only the caster's opponents' creatures are dealt damage",
    "token_destroy_keyerror": "701.7a: destroying a Goblin token crashes (KeyError: its name is not in the card table)",
    "aura_on_token_attributeerror": "704.5m: an Aura on a Goblin token crashes the SBA check (AttributeError)",
}


class BuggyGame(clean.PoolGame):
    def __init__(self, board):
        super().__init__(board)
        self.sticky: dict[str, list[tuple[int, int]]] = {}  # creature id -> bonuses "applied" to it

    # Bug 1 (CR 704.5j): the legend rule is never checked.
    def _legend_rule(self, decider):
        return []

    # Bug 2 (CR 301.5, 611.3a): the engine "applies" an Equipment's bonus to a creature when it
    # is attached and forgets to take it back when the Equipment moves to another creature.
    def _attach(self, aid, host):
        obj = self.objects[aid]
        old = obj["attached_to"]
        ability = self.ability(obj)
        if ability[0] == "equipment" and old is not None and old != host and old in self.objects:
            self.sticky.setdefault(old, []).append((ability[1], ability[2]))
        super()._attach(aid, host)

    def _attachment_bonuses(self, obj):
        return super()._attachment_bonuses(obj) + self.sticky.get(obj["id"], [])

    def _leave_battlefield(self, obj):
        self.sticky.pop(obj["id"], None)  # a new object (400.7): that much it gets right
        super()._leave_battlefield(obj)

    # Bug 3 (Pyroclasm's Oracle text, "each creature"): only creatures of the caster's opponents.
    def _pyroclasm_victims(self, controller):
        return [oid for oid in super()._pyroclasm_victims(controller)
                if self.objects[oid]["controller"] != controller]

    # Bug 4 (CR 701.7a, 111.1): a destroy effect looks indestructible up in the card table by
    # name, where a Goblin token (defined by Dragon Fodder, not a card) isn't: KeyError.
    def _destroy(self, ids, cause):
        doomed = [oid for oid in ids if self.objects[oid]["zone"] == "battlefield"
                  and "indestructible" not in clean.CARDS[self.objects[oid]["name"]]["keywords"]]
        self._move(doomed, cause)

    # Bug 5 (CR 704.5m, 303.4d): the Aura's host is checked on its printed card record; a
    # Goblin token has none: AttributeError ('NoneType' object has no attribute 'get').
    def _aura_illegal(self, aura):
        host = self.objects.get(aura["attached_to"]) if aura["attached_to"] is not None else None
        if host is None or host is aura or host["zone"] != "battlefield":
            return True
        return "Creature" not in clean.CARDS.get(host["name"]).get("types", [])


class BuggyEngine(clean.PoolEngine):
    game_class = BuggyGame
    name = "pool-buggy"
    # bug 1: legend_rule not claimed either. combat and stack aren't claimed: none of the five
    # bugs is a combat or stack bug, and with their events in the mix seed 0's shrink of bug 2
    # stops at 3 steps.
    capabilities = clean.CAPABILITIES - {"legend_rule", "combat", "stack"}


engine = BuggyEngine()
