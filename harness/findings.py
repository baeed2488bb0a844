"""Findings: what a run reports, one per distinct key.

A finding's **key** says which bug it is, so a ``--keep-going`` run reports each bug
once and a baseline can list the known ones: the invariant's name, and for the
differential oracle also the first differing field with object and player ids
wildcarded, e.g. ``differential.matches_reference[objects.*.tapped]``. Later failures
with a known key are counted, not reported again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from invariants.differential import first_path

from .protocol import Violation

DIFFERENTIAL = "differential.matches_reference"


def finding_key(violation: Violation) -> str:
    """The key of ``violation``: its invariant, and for the differential oracle the path of
    the first difference with ids wildcarded (:func:`invariants.differential.first_path`),
    e.g. ``differential.matches_reference[objects.*.tapped]``."""
    if violation.invariant == DIFFERENTIAL:
        return f"{DIFFERENTIAL}[{first_path(violation.messages) or 'other'}]"
    return violation.invariant


def scenario_size(scenario: dict) -> tuple[int, int]:
    """(events, board objects) of a scenario: how small a shrunk finding is."""
    return len(scenario["steps"]), len(scenario["board"]["objects"])


@dataclass
class Finding:
    """One distinct bug found by a run.

    ``violations`` are the invariants that failed on the failing step, the first being
    the one the key comes from; ``scenario`` its shrunk, replayable form; ``replay_path``
    where it was written; ``examples_to_find`` / ``seconds_to_find`` how many examples
    and seconds into the run it was first seen; ``repeats`` how many later examples failed
    with the same key (counted, not reported); ``shrink_cut_short`` whether the run's time
    budget or a Ctrl-C stopped shrinking early; ``known`` the baseline's reason when the
    key is a known finding (None: new); ``from_database`` whether it was first seen when
    the run replayed a failure saved in the example database (by an earlier run or shard).
    """

    key: str
    violations: list[Violation]
    scenario: dict
    replay_path: Path | None = None
    examples_to_find: int | None = None
    seconds_to_find: float | None = None
    repeats: int = 0
    shrink_cut_short: bool = False
    known: str | None = None
    notes: list[str] = field(default_factory=list)
    from_database: bool = False

    @property
    def violation(self) -> Violation:
        return self.violations[0]

    @property
    def size(self) -> tuple[int, int]:
        return scenario_size(self.scenario)

    def to_json(self) -> dict:
        return {
            "key": self.key, "invariant": self.violation.invariant,
            "rules": self.violation.to_json()["rules"],
            "violations": [v.to_json() for v in self.violations],
            "scenario": self.scenario, "replay_file": str(self.replay_path) if self.replay_path else None,
            "examples_to_find": self.examples_to_find, "seconds_to_find": self.seconds_to_find,
            "repeats": self.repeats, "shrunk_size": {"events": self.size[0], "objects": self.size[1]},
            "shrink_cut_short": self.shrink_cut_short, "known": self.known, "notes": list(self.notes),
            "from_database": self.from_database,
        }
