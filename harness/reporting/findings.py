"""Findings: what a run reports, one per distinct key.

A finding's **key** says which bug it is, so a ``--keep-going`` run reports each bug
once and a baseline can list the known ones (:func:`finding_key`, :func:`violation_keys`):

- the invariant's name (``sba.token_zone``);
- for a crash (``generic.engine_does_not_raise``) also where it crashed
  (:func:`crash_site`): the exception type and the innermost frame of the engine's own
  code, ``generic.engine_does_not_raise[KeyError@engines/mine.py:_destroy]``, or for an
  engine over JSON-RPC the kind of fault (``[internal_error]``, ``[exit 139]``,
  ``[timeout]``), so two crash bugs of one engine are two findings;
- for the differential oracle the first differing field with object and player ids
  wildcarded, ``differential.matches_reference[objects.*.tapped]``, unless an invariant
  of the rules (any family but the differential one) failed on the same step: the
  difference then carries that invariant's key (the first such in family order, then the
  registry's order), so one bug has one key with and without ``--against``.

**One bug, one finding.** The violations of one failing step are one finding, listing them
all; its key is :func:`step_key`: that of the first of them in family order (rules, then
generic, then the differential oracle) and then the registry's order. Keys that failed
together on a step stay together for the whole run (``--keep-going``): while Hypothesis
shrinks, a failure with any of them is the same failure (one exception class, so it is
shrunk once), and once the finding is reported a later step failing with any of them is a
repeat of it (counted, not reported), the other keys of that step joining it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import sysconfig
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import packages_distributions
from pathlib import Path
from collections.abc import Iterable, Sequence

from invariants.differential import first_path

from harness.protocol import Violation

#: The name of the differential invariant (``invariants.differential``'s ``matches_reference``), not
#: its pseudo-capability ``invariants.differential.DIFFERENTIAL`` (``"differential"``).
MATCHES_REFERENCE = "differential.matches_reference"
CRASH = "generic.engine_does_not_raise"
#: The message of a crash violation that names its site (:func:`crash_site`), read back by
#: :func:`finding_key`: ``crash site: KeyError@engines/mine.py:_destroy (line 42)``.
CRASH_SITE = "crash site: "
_SITE = re.compile(r"crash site: (.+?)(?: \(line \d+\))?$")


def violation_json(violation: Violation) -> dict:
    """``{"invariant", "step", "messages", "rules", "rulings"}`` of a violation (a scenario's
    ``violation``, a report's ``violations``): the CR rules and the ruling texts are those the
    invariant registry gives for its name (empty if none). Here, not in :mod:`harness.protocol`,
    which imports nothing of the project."""
    from invariants import REGISTRY, ruling_text

    inv = REGISTRY.get(violation.invariant)
    return {
        "invariant": violation.invariant,
        "step": violation.step,
        "messages": list(violation.messages),
        "rules": list(inv.rules) if inv else [],
        "rulings": [ruling_text(r) for r in inv.rulings] if inv else [],
    }


def finding_key(violation: Violation) -> str:
    """The key of ``violation`` on its own: its invariant; for a crash also its site
    (``generic.engine_does_not_raise[KeyError@engines/mine.py:_destroy]``, from the message
    :func:`crash_site_message` wrote; bare when there is none, as in files of older runs); for
    the differential oracle the path of the first difference with ids wildcarded
    (:func:`invariants.differential.first_path`), e.g.
    ``differential.matches_reference[objects.*.tapped]``.

    A difference that another invariant also caught on its step has that invariant's key
    instead: :func:`violation_keys` gives the keys of the violations of a step together."""
    if violation.invariant == MATCHES_REFERENCE:
        return f"{MATCHES_REFERENCE}[{first_path(violation.messages) or 'other'}]"
    if violation.invariant == CRASH:
        for message in violation.messages:
            found = _SITE.match(message)
            if found:
                return f"{CRASH}[{found.group(1)}]"
    return violation.invariant


def _registry_rank() -> dict[str, int]:
    from invariants import REGISTRY

    return {name: i for i, name in enumerate(REGISTRY)}


def _order(invariant: str, rank: dict[str, int]) -> tuple[int, int]:
    """Where an invariant stands when a step's violations choose their finding's key: by family
    (``invariants.FAMILIES``: rules, then generic, then the differential oracle), then in the
    registry's order; an unregistered name (a harness verdict) after every registered one."""
    from invariants import REGISTRY
    from invariants.base import FAMILIES

    inv = REGISTRY.get(invariant)
    family = FAMILIES.index(inv.family) if inv is not None and inv.family in FAMILIES else len(FAMILIES)
    return family, rank.get(invariant, len(rank))


def step_key(violations: Sequence[Violation], keys: Sequence[str] | None = None) -> str:
    """The key of the finding that ``violations`` (those of one failing step) are: the key
    (:func:`violation_keys`) of the first of them in family order (rules, generic, differential)
    and then the registry's order. A difference from the reference carries that same key
    (:func:`violation_keys`), so the key is the same with and without ``--against``."""
    keys = list(keys) if keys is not None else violation_keys(violations)
    rank = _registry_rank()
    best = min(range(len(violations)), key=lambda i: (_order(violations[i].invariant, rank), i))
    return keys[best]


def _adoptable(invariant: str) -> bool:
    """Whether a difference on the same step takes this invariant's key: any step invariant
    of the rules (generic and sba ones included) but the differential oracle."""
    from invariants import REGISTRY

    inv = REGISTRY.get(invariant)
    return inv is not None and inv.family != "differential" and inv.scope == "step"


def violation_keys(violations: Sequence[Violation]) -> list[str]:
    """The key of each of ``violations`` (those of one example), in order: :func:`finding_key`,
    except that a difference from the reference (``differential.matches_reference``) on a step
    where another invariant failed too has the key of the first of those in family order (rules
    before generic) and then the registry's order (``invariants.REGISTRY``): the same bug then
    has the same key in invariant mode and in differential mode, and one baseline entry covers both."""
    own = [finding_key(v) for v in violations]
    if not any(v.invariant == MATCHES_REFERENCE for v in violations):
        return own
    rank = _registry_rank()
    caught: dict[int, tuple] = {}  # step -> (family and registry rank, key) of its first rules invariant
    for v, key in zip(violations, own):
        if v.invariant != MATCHES_REFERENCE and _adoptable(v.invariant):
            mine = (_order(v.invariant, rank), key)
            if v.step not in caught or mine < caught[v.step]:
                caught[v.step] = mine
    return [caught[v.step][1] if v.invariant == MATCHES_REFERENCE and v.step in caught else key
            for v, key in zip(violations, own)]


def related_keys(violations: Sequence[Violation]) -> set[str]:
    """Every key ``violations`` stand for: each one's (:func:`violation_keys`) and, for a
    difference that took another invariant's key, its own: once a finding is reported none
    of them is reported again as another finding."""
    return {*violation_keys(violations), *(finding_key(v) for v in violations)}


def primary_first(violations: Sequence[Violation], key: str, keys: Sequence[str] | None = None) -> list[Violation]:
    """``violations`` with the one ``key`` comes from first (an invariant's own violation
    before a difference that took its key), the others after it in their order."""
    keys = list(keys) if keys is not None else violation_keys(violations)
    hits = [i for i, k in enumerate(keys) if k == key]
    if not hits:
        return list(violations)
    first = next((i for i in hits
                  if violations[i].invariant != MATCHES_REFERENCE or key.startswith(MATCHES_REFERENCE)), hits[0])
    return [violations[first], *(v for i, v in enumerate(violations) if i != first)]


# ---------------------------------------------------------------------------- crash sites
def _library_roots() -> tuple[str, ...]:
    """Folders of code that is not an engine's: the standard library, site-packages, and the
    harness's own packages ``harness``, ``invariants`` and ``cards`` (the distribution's other
    packages are engine code: :func:`_engine_roots`)."""
    roots: set[str] = set()
    for scheme_vars in ({}, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        try:
            paths = sysconfig.get_paths(vars=scheme_vars) if scheme_vars else sysconfig.get_paths()
        except (KeyError, ValueError):  # pragma: no cover - an unusual install scheme
            continue
        roots.update(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if paths.get(k))
    here = Path(__file__).resolve().parents[1]  # the harness package
    roots.add(str(here))
    for package in ("invariants", "cards", "hypothesis"):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):  # pragma: no cover
            spec = None
        if spec is not None and spec.origin:
            roots.add(str(Path(spec.origin).resolve().parent))
    return tuple(sorted({os.path.realpath(r) for r in roots}))


_ROOTS: tuple[str, ...] | None = None


def _under(path: str, roots) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


_HARNESS_PACKAGES = ("harness", "invariants", "cards")


@lru_cache(maxsize=1)
def _engine_packages() -> tuple[str, ...]:
    """The rulesfuzz distribution's top-level packages other than the harness's own."""
    try:
        return tuple(sorted(p for p, dists in packages_distributions().items()
                            if "rulesfuzz" in dists and p not in _HARNESS_PACKAGES))
    except Exception:  # pragma: no cover - broken metadata: no engine package is known
        return ()


def _engine_roots() -> tuple[str, ...]:
    """Folders of the rulesfuzz distribution's other top-level packages, as imported: engine
    code wherever they are installed (site-packages too), since the engine under test may be
    the project's own oracle or a fork of it."""
    roots = []
    for name in _engine_packages():
        location = getattr(sys.modules.get(name), "__file__", None)
        if location:
            roots.append(os.path.realpath(Path(location).parent))
    return tuple(roots)


def _is_library(filename: str) -> bool:
    """Whether a frame of ``filename`` is not the engine's own code (:func:`_library_roots`)."""
    global _ROOTS
    if filename.startswith("<"):  # <frozen importlib._bootstrap> is the library; <string> an engine's
        return filename.startswith("<frozen")
    if _ROOTS is None:
        _ROOTS = _library_roots()
    path = os.path.realpath(filename)
    if _under(path, _engine_roots()):
        return False
    parts = Path(path).parts
    return "site-packages" in parts or "dist-packages" in parts or _under(path, _ROOTS)


def _shown(filename: str) -> str:
    """A frame's file as a key shows it: relative to the current folder when under it, else its name."""
    if filename.startswith("<"):
        return filename
    path = Path(os.path.realpath(filename))
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.name


_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


def innermost(frames: Iterable[tuple[str, int, str]]) -> tuple[str, int, str] | None:
    """The innermost of ``frames`` (outermost first: file, line, function) in the engine's own
    code. A comprehension's frame counts as the function around it (Python 3.12 runs list,
    dict and set comprehensions inline, PEP 709), so a key is the same on every Python."""
    frames = list(frames)
    for i in range(len(frames) - 1, -1, -1):
        frame = frames[i]
        if _is_library(frame[0]):
            continue
        if frame[2] in _COMPREHENSIONS:
            outer = next((f for f in reversed(frames[:i]) if f[0] == frame[0] and f[2] not in _COMPREHENSIONS), None)
            if outer is not None:
                return (frame[0], frame[1], outer[2])
        return frame
    return None


def _tb_frames(tb) -> list[tuple[str, int, str]]:
    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    return frames


_PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<function>\S+)')
_JS_FRAME = re.compile(r"^\s*at (?:(?P<function>[^\s(]+) \()?(?P<file>[^\s()]+?):(?P<line>\d+):\d+\)?\s*$")


def text_frames(text: str) -> list[tuple[str, int, str]]:
    """The frames of a traceback written as text: Python's (outermost first) or a JavaScript
    stack (innermost first; returned outermost first)."""
    lines = text.splitlines()
    python = [(m["file"], int(m["line"]), m["function"]) for m in map(_PY_FRAME.match, lines) if m]
    if python:
        return python
    js = [(m["file"].removeprefix("file://"), int(m["line"]), m["function"] or "<anonymous>")
          for m in map(_JS_FRAME.match, lines) if m]
    return list(reversed(js))


def site_of(kind: str, frame: tuple[str, int, str] | None) -> str:
    if frame is None:
        return kind
    return f"{kind}@{_shown(frame[0])}:{frame[2]} (line {frame[1]})"


_EXIT = re.compile(r"\(?(?:exit )?code (-?\d+|None)\)?")


def process_fault(exc) -> str:
    """The kind of fault of an :class:`harness.connection.rpc.EngineProcessError`: ``exit N`` (a signal
    N as 128+N, as a shell shows it), ``not_json``, ``not_jsonrpc`` or ``protocol_error``."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    if "exited" in text or "closed its stdout" in text:
        found = _EXIT.search(text)
        code = found.group(1) if found else "None"
        if code == "None":
            return "exit"
        number = int(code)
        return f"exit {128 - number if number < 0 else number}"
    if "not JSON-RPC" in text:
        return "not_jsonrpc"
    if "not JSON" in text:
        return "not_json"
    return "protocol_error"


def crash_site(exc: BaseException) -> str:
    """Where an engine call that raised ``exc`` crashed, for its finding key.

    In-process: the exception's type and the innermost traceback frame of the engine's own
    code (not the standard library, site-packages, ``harness``, ``invariants`` or ``cards``;
    the project's oracle and its forks are engine code), its file relative to the current
    folder when under it (else its name), its function and line:
    ``KeyError@engines/mine.py:_destroy (line 42)``; the type alone when no frame is the
    engine's. Over JSON-RPC (:mod:`harness.connection.rpc`): an ``internal_error`` answer whose ``data``
    has a ``type`` (and a ``traceback``) as the exception it names (the form of an
    in-process engine, so ``--isolate`` keeps the key), else the error's name
    (``internal_error``); a process fault ``exit N``, ``not_json``, ``not_jsonrpc`` or
    ``protocol_error``. A hang is ``timeout``. The line is informative: the key leaves it out.
    """
    if type(exc).__name__ == "EngineTimeout":
        return "timeout"
    own = getattr(exc, "crash_site", None)  # harness.connection.rpc's errors say where they come from
    if callable(own):
        return own()
    return site_of(type(exc).__name__, innermost(_tb_frames(exc.__traceback__)))


def crash_site_message(site: str) -> str:
    """The message of a crash violation naming its site (read back by :func:`finding_key`)."""
    return CRASH_SITE + site


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
            "rules": violation_json(self.violation)["rules"],
            "violations": [violation_json(v) for v in self.violations],
            "scenario": self.scenario, "replay_file": str(self.replay_path) if self.replay_path else None,
            "examples_to_find": self.examples_to_find, "seconds_to_find": self.seconds_to_find,
            "repeats": self.repeats, "shrunk_size": {"events": self.size[0], "objects": self.size[1]},
            "shrink_cut_short": self.shrink_cut_short, "known": self.known, "notes": list(self.notes),
            "from_database": self.from_database,
        }
