"""The fork API (docs/fork-api.md) is true: every method it lists exists on
``reference_engine.Game`` with the documented parameters, and the forks override only those."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import reference_engine

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "fork-api.md"


def documented() -> dict[str, list[str]]:
    """Method name -> parameter names, from the first column of the doc's tables."""
    methods = {}
    for match in re.finditer(r"^\| `(\w+)\(([^)]*)\)", DOC.read_text(encoding="utf-8"), re.M):
        params = [p.split("=")[0].strip() for p in match.group(2).split(",") if p.strip() and p.strip() != "*"]
        methods[match.group(1)] = params
    return methods


def test_the_doc_lists_methods():
    assert len(documented()) >= 25


@pytest.mark.parametrize("name", sorted(documented()))
def test_each_documented_method_exists_with_its_parameters(name):
    method = getattr(reference_engine.Game, name, None)
    assert callable(method), f"{name} is documented but reference_engine.Game has no such method"
    actual = [p for p in inspect.signature(method).parameters if p != "self"]
    assert actual == documented()[name]


def test_every_effect_method_is_documented():
    """A fork may override the method of any action of a modelled card's effects (``effect_<action>``)."""
    from reference_engine.model_cards import EFFECT_ACTIONS

    assert set(EFFECT_ACTIONS.values()) <= set(documented())


def fork_files() -> list[Path]:
    return sorted((ROOT / "examples" / "forks").glob("*.py")) + sorted((ROOT / "tests" / "mutants").glob("[!_]*.py"))


@pytest.mark.parametrize("path", fork_files(), ids=lambda p: p.stem)
def test_forks_override_only_the_fork_api(path):
    spec = importlib.util.spec_from_file_location(f"fork_api_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games = [c for c in vars(module).values()
             if isinstance(c, type) and issubclass(c, reference_engine.Game) and c is not reference_engine.Game]
    assert games, f"{path.name} defines no subclass of reference_engine.Game"
    allowed = set(documented())
    for game in games:
        overridden = {n for n, v in vars(game).items()
                      if callable(v) and not n.startswith("__") and hasattr(reference_engine.Game, n)}
        assert overridden <= allowed, f"{path.name} overrides {sorted(overridden - allowed)}, not in docs/fork-api.md"
