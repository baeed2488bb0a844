"""The mutant corpus: forks of the reference engine, each with one realistic rules bug.

Each mutant is a module ``tests/mutants/<name>.py`` that subclasses
:class:`reference_engine.Game`, overrides one rules method (or two, when the bug needs to
remember something between them) and exposes ``engine = ReferenceAdapter(...)``, like
``examples/forks``. Its docstring says what is wrong and quotes the rule or ruling it
breaks. Fuzz one with

    rulesfuzz run --engine tests/mutants/umbra_taps_creature.py:engine [--against reference]

:data:`MUTANTS` maps each name to a :class:`Mutant` (its CR rule, a one-line summary,
its module and a loader). The bug-finding benchmark (``benchmarks/bugfinding.py``) and
``tests/test_bugfinding.py`` run the harness against every one of them.

Adding a mutant (each rules area added to the engine brings its own): put the module
here, with a docstring whose first line says what goes wrong and which has the lines
``Rule broken: CR ...`` and ``Bug: ...``. A module not listed in ``_CORPUS`` below is
picked up anyway: its rule is read from the ``Rule broken: CR`` line and its summary from
the first line. If the invariants alone can't find it (only the differential oracle
can), say why in a module-level string ``INVARIANT_GAP = "..."`` (or in ``_CORPUS``).
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Mutant:
    """One mutant: ``rule`` is the CR rule (and ruling) it breaks, ``bug`` says how.

    ``invariant_gap`` is None when the invariants alone (no differential oracle) are
    expected to find the bug; otherwise it says why they currently don't, so the
    bug-finding test doesn't demand it and the gap stays visible.
    ``module`` is the dotted module name relative to this package; :meth:`load` imports
    it and returns its ``engine`` (protocol ``harness.protocol.Engine``); :attr:`spec`
    is the engine spec for ``rulesfuzz run --engine``.
    """

    name: str
    rule: str
    bug: str
    invariant_gap: str | None = None

    @property
    def module(self) -> str:
        return f"{__name__}.{self.name}"

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.py"

    @property
    def spec(self) -> str:
        return f"{self.path}:engine"

    def load(self):
        """The mutant's engine (a ``ReferenceAdapter`` around its fork of the engine)."""
        return importlib.import_module(self.module).engine


_CORPUS = [
    # Umbra armor is not regeneration (CR 702.89a; ruling Hyena Umbra 2010-06-15).
    Mutant("umbra_taps_creature", "702.89a (Hyena Umbra 2010-06-15: not regeneration)",
           "umbra armor taps the creature it saves"),
    Mutant("umbra_removes_from_combat", "702.89a (Hyena Umbra 2010-06-15: not regeneration)",
           "umbra armor removes the creature it saves from combat"),
    Mutant("umbra_keeps_damage", "702.89a", "umbra armor destroys the Aura but leaves the damage on the creature"),
    Mutant("umbra_keeps_aura", "702.89a", "umbra armor saves the creature but doesn't destroy the Aura"),
    # Umbra armor only replaces destruction (CR 701.7b; ruling Indrik Umbra 2024-06-07).
    Mutant("umbra_saves_sacrificed", "701.17a (Indrik Umbra 2024-06-07: no effect if sacrificed)",
           "sacrifice goes through destroy, so umbra armor saves a sacrificed creature"),
    Mutant("umbra_saves_legend", "704.5j (Indrik Umbra 2024-06-07: no effect under the legend rule)",
           "the legend rule destroys, so umbra armor saves the extra legend"),
    Mutant("umbra_saves_zero_toughness", "704.5f (Indrik Umbra 2024-06-07: no effect at toughness 0)",
           "toughness 0 or less destroys, so umbra armor replaces it"),
    Mutant("umbra_ignores_lethal_damage", "702.89a, 704.5g (Hyena Umbra 2010-06-15: no matter why)",
           "umbra armor doesn't replace destruction by lethal or deathtouch damage"),
    # Indestructible (CR 702.12b; ruling Umbra Mystic 2024-06-07).
    Mutant("indestructible_loses_aura", "702.12b (Umbra Mystic 2024-06-07: indestructible)",
           "an indestructible creature told to be destroyed loses an umbra Aura"),
    # "Can't be regenerated" (CR 701.15c; ruling Hyena Umbra 2010-06-15).
    Mutant("cant_be_regenerated_stops_umbra", "701.15c, 702.89a (Hyena Umbra 2010-06-15: Vendetta)",
           "\"can't be regenerated\" also stops umbra armor"),
    Mutant("regeneration_ignores_cant_be_regenerated", "701.15c",
           "a regeneration shield is used although the creature can't be regenerated"),
    Mutant("regeneration_doesnt_tap", "701.15a",
           "regeneration doesn't tap the creature or remove it from combat"),
    # Simultaneous destruction (CR 704.3, 701.7a; rulings Umbra Mystic and Hyena Umbra).
    Mutant("deathtouch_lethal_replaced_once", "704.3, 704.5g, 704.5h (Umbra Mystic 2024-06-07: multiple SBAs)",
           "lethal deathtouch damage: one destruction is replaced, the other kills the creature"),
    Mutant("deathtouch_ignored", "702.2b, 704.5h", "non-lethal damage from a deathtouch source doesn't destroy"),
    Mutant("destroyed_with_its_aura_dies", "702.89a, 701.7a (Hyena Umbra 2010-06-15: Planar Cleansing)",
           "an effect destroying a creature and its umbra Aura at once kills the creature"),
    Mutant("destroy_not_simultaneous", "701.7a, 614.1 (Hyena Umbra 2010-06-15: Planar Cleansing)",
           "an effect destroying several permanents destroys them one at a time"),
    Mutant("sba_checked_once", "704.3", "state-based actions are checked once instead of until none apply"),
    # Choosing among replacement effects (CR 616.1; rulings Umbra Mystic 2010-06-15, 2024-06-07).
    Mutant("aura_controller_chooses", "616.1 (Umbra Mystic 2010-06-15: no matter who controls the Auras)",
           "the Aura's controller, not the creature's, chooses the umbra Aura to destroy"),
    Mutant("engine_picks_aura", "616.1, 616.1e (Umbra Mystic 2024-06-07: you choose)",
           "the engine destroys the newest umbra Aura without asking"),
    Mutant("chosen_aura_ignored", "616.1 (Umbra Mystic 2024-06-07: you choose)",
           "the controller is asked, but the oldest umbra Aura is destroyed"),
    Mutant("umbra_destroys_every_aura", "616.1f (Umbra Mystic 2024-06-07: only one of them)",
           "umbra armor destroys every umbra Aura on the creature"),
    Mutant("umbra_and_regeneration_both", "616.1, 616.1f (Hyena Umbra 2010-06-15: the other effect remains)",
           "umbra armor and a regeneration shield both apply to one destruction"),
    Mutant("umbra_only_own_auras", "702.89a (Umbra Mystic 2010-06-15: no matter who controls those Auras)",
           "an umbra Aura controlled by another player doesn't protect the creature"),
    Mutant("umbra_aura_wrong_cause", "702.89a, 701.7b (Indrik Umbra 2024-06-07: the spell destroys the Aura)",
           "the Aura destroyed instead is reported as destroyed by umbra armor itself"),
    # The legend rule (CR 704.5j).
    Mutant("legend_rule_engine_chooses", "704.5j", "the legend rule keeps the newest legend without asking"),
    Mutant("legend_rule_world_rule", "704.5j", "the pre-2013 legend rule: same-name legends of different players all die"),
]



def _discovered(path: Path) -> Mutant:
    """A :class:`Mutant` for a module not listed in ``_CORPUS``, read from its source (not imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    match = re.search(r"Rule broken:\s*CR\s+([0-9][0-9a-z./-]*(?:(?:,\s*|\s+and\s+)[0-9][0-9a-z./-]*)*)", doc)
    gap = next((node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "INVARIANT_GAP" for t in node.targets)
                and isinstance(node.value, ast.Constant)), None)
    return Mutant(path.stem, match.group(1).rstrip(".,") if match else "?", doc.split("\n", 1)[0].rstrip("."), gap)


def _all() -> dict[str, Mutant]:
    found = {m.name: m for m in _CORPUS}
    for path in sorted(HERE.glob("*.py")):
        if not path.stem.startswith("_") and path.stem not in found:
            found[path.stem] = _discovered(path)
    return found


#: Every mutant by name: those listed above, then the others found in this directory.
MUTANTS: dict[str, Mutant] = _all()


def invariant_detectable() -> list[str]:
    """Names of the mutants the invariants alone are expected to find."""
    return [name for name, m in MUTANTS.items() if m.invariant_gap is None]


def load(name: str):
    """The engine of the mutant ``name``. Raises KeyError for an unknown name."""
    return MUTANTS[name].load()
