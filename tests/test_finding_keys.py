"""Finding keys that tell bugs apart and survive modes (harness/reporting/findings.py).

A crash's key names its site (exception type and the engine's innermost frame, or the
fault of an engine over JSON-RPC), so two crash bugs of one engine are two findings; a
difference from the reference that a rules invariant also caught has that invariant's
key, so one bug has one key with and without ``--against reference`` and a baseline made
in one mode covers the other; an older baseline's bare ``generic.engine_does_not_raise``
still knows every crash.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from harness.running import scenario as scenario_file
from harness.adapters.reference import ReferenceAdapter
from harness.reporting.baseline import Known
from harness.interfaces.cli import main
from harness.running.execution import EngineTimeout
from harness.reporting.findings import CRASH, crash_site, finding_key, primary_first, violation_keys
from harness.connection.loading import load_engine
from harness.protocol import EngineInfo
from harness.running.reduce import reduce_scenario
from harness.connection.rpc import EngineError, EngineProcessError
from harness.running.runner import run
from invariants import REGISTRY, Violation, select

ROOT = Path(__file__).resolve().parent.parent  # not from .conftest: `rulesfuzz run` loads this file by its path
TINY = ROOT / "examples" / "engines" / "tiny" / "engine.py"
THIS = "tests/test_finding_keys.py"  # relative to the repository (tests run from there)


def _tiny():
    spec = importlib.util.spec_from_file_location("tiny_engine_keys", TINY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tiny = _tiny()


class TwoCrashes:
    """The tiny engine with two crash bugs: a sacrifice raises KeyError (``_sacrifice``), but
    after a damage event in the same game ZeroDivisionError (``_sacrifice_after_damage``)."""

    info = EngineInfo(name="two-crashes", version="1", capabilities=tiny.CAPABILITIES, cards=frozenset(tiny.CARDS))

    def new_game(self, board):
        return TwoCrashesGame(tiny.engine.new_game(board))


class TwoCrashesGame:
    def __init__(self, game):
        self.game = game
        self.damaged = False

    def apply(self, event, decider):
        if event.get("type") == "sacrifice":
            return self._sacrifice_after_damage(event) if self.damaged else self._sacrifice(event)
        self.game.apply(event, decider)
        self.damaged = self.damaged or event.get("type") == "damage"

    def _sacrifice(self, event):
        return {}[event["object"]]

    def _sacrifice_after_damage(self, event):
        return len(event) / 0

    def observe(self):
        return self.game.observe()


two_crashes = TwoCrashes()  # for `--engine tests/test_finding_keys.py:two_crashes`
SACRIFICE = f"{CRASH}[KeyError@{THIS}:_sacrifice]"
AFTER_DAMAGE = f"{CRASH}[ZeroDivisionError@{THIS}:_sacrifice_after_damage]"


def _replay_keys(engine, scenario, against=None) -> list[str]:
    capabilities = set(engine.info.capabilities) | ({"differential"} if against is not None else set())
    result = scenario_file.replay(engine, scenario, select(capabilities), select(capabilities, scope="scenario"),
                                  against=against)
    return violation_keys(result.violations)


# ------------------------------------------------------------------------------ crash keys
def test_two_crash_sites_are_two_findings_each_shrunk_on_its_own(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run(TwoCrashes(), max_examples=40, seed=0, database=None, keep_going=True, replay_dir=tmp_path)
    assert sorted(f.key for f in result.findings) == sorted([SACRIFICE, AFTER_DAMAGE])
    by_key = {f.key: f for f in result.findings}
    # Shrinking and reduction kept each key: the KeyError one is a lone sacrifice, the other still
    # needs its damage event (dropping it moves the crash to _sacrifice: another key, not accepted).
    assert [s["event"]["type"] for s in by_key[SACRIFICE].scenario["steps"]] == ["sacrifice"]
    assert [s["event"]["type"] for s in by_key[AFTER_DAMAGE].scenario["steps"]] == ["damage", "sacrifice"]
    assert by_key[SACRIFICE].violation.messages[-1].startswith(f"crash site: KeyError@{THIS}:_sacrifice (line ")
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2 and not list(tmp_path.glob("*pending*"))
    for path in files:  # each replay file fails with its own key
        saved = scenario_file.load(path)
        assert _replay_keys(TwoCrashes(), saved)[0] == saved["key"]


def test_the_same_crash_site_twice_is_one_key(monkeypatch):
    monkeypatch.chdir(ROOT)
    one = {"format": scenario_file.FORMAT, "board": {"players": [{"id": "P1"}, {"id": "P2"}], "objects": [
        {"id": "a", "card": "Grizzly Bears", "owner": "P1"}]}, "steps": [{"event": {"type": "sacrifice", "object": "a"}}]}
    other = {**one, "board": {**one["board"], "objects": [{"id": "zz", "card": "Typhoid Rats", "owner": "P2"}]},
             "steps": [{"event": {"type": "sacrifice", "object": "zz"}}]}
    assert _replay_keys(TwoCrashes(), one) == _replay_keys(TwoCrashes(), other) == [SACRIFICE]
    result = run(TwoCrashes(), max_examples=60, seed=0, database=None, keep_going=True, shrink=False)
    assert sorted(f.key for f in result.findings) == sorted([SACRIFICE, AFTER_DAMAGE])
    assert sum(f.repeats for f in result.findings) > 0  # later crashes at a found site: counted, not reported


def test_reduction_accepts_only_failures_of_the_same_key(monkeypatch):
    monkeypatch.chdir(ROOT)
    scenario = {"format": scenario_file.FORMAT, "board": {"players": [{"id": "P1"}, {"id": "P2"}], "objects": [
        {"id": "a", "card": "Grizzly Bears", "owner": "P1"}]}, "steps": [
        {"event": {"type": "damage", "source": "a", "target": "P2", "amount": 1}},
        {"event": {"type": "sacrifice", "object": "a"}}]}
    engine = TwoCrashes()
    invariants = select(engine.info.capabilities)
    reduced = reduce_scenario(engine, scenario, invariants, key=AFTER_DAMAGE)
    assert [s["event"]["type"] for s in reduced["steps"]] == ["damage", "sacrifice"]  # the damage stayed
    assert _replay_keys(engine, reduced) == [AFTER_DAMAGE]
    # without the damage the crash is _sacrifice's: that key's reduction takes it
    reduced = reduce_scenario(engine, scenario, invariants, key=SACRIFICE)
    assert [s["event"]["type"] for s in reduced["steps"]] == ["sacrifice"]


def test_crash_sites_of_in_process_engines(monkeypatch):
    monkeypatch.chdir(ROOT)
    from reference_engine import cards

    def raise_from(function, *args):
        try:
            function(*args)
        except BaseException as exc:  # noqa: BLE001
            return crash_site(exc)
        raise AssertionError("did not raise")

    # The reference engine is engine code (the engine under test may be it or a fork of it).
    assert raise_from(cards.card, "No Such Card").startswith("UnknownCard@reference_engine/cards.py:card (line ")
    # The standard library is not: the engine's frame that called it is the site.
    assert raise_from(lambda: json.loads("{")).startswith(f"JSONDecodeError@{THIS}:<lambda> (line ")
    assert crash_site(TypeError("x")) == "TypeError"  # no frame of the engine's own: the type alone
    key = finding_key(Violation(CRASH, 1, ("engine raised KeyError in apply(destroy): 'c0'",
                                           "crash site: KeyError@engines/mine.py:_destroy (line 42)")))
    assert key == f"{CRASH}[KeyError@engines/mine.py:_destroy]"  # the line is not part of the key
    assert finding_key(Violation(CRASH, 1, ("crashed",))) == CRASH  # a file of an older run: the bare key


def test_crash_sites_of_engines_over_json_rpc():
    traceback = ('Traceback (most recent call last):\n'
                 f'  File "{ROOT}/harness/serve.py", line 110, in handle\n    result = self._dispatch(method)\n'
                 '  File "/elsewhere/engines/mine.py", line 7, in _destroy\n    del self.objects[oid]\n'
                 "KeyError: 'c0'\n")
    internal = -32603
    assert crash_site(EngineError(internal, "KeyError: 'c0'", {"type": "KeyError", "traceback": traceback})) \
        == "KeyError@mine.py:_destroy (line 7)"  # as an in-process engine's (so --isolate keeps the key)
    assert crash_site(EngineError(internal, "boom", {"type": "TypeError"})) == "TypeError"
    assert crash_site(EngineError(internal, "boom")) == "internal_error"
    assert crash_site(EngineError(-32601, "no method")) == "method_not_found"
    assert crash_site(EngineProcessError("engine process exited (code -11) before reading 'apply'")) == "exit 139"
    assert crash_site(EngineProcessError("engine process closed its stdout (exit code 3) while the harness "
                                         "waited for apply")) == "exit 3"
    assert crash_site(EngineProcessError("engine wrote a line that is not JSON while the harness waited for "
                                         "apply: 'x'")) == "not_json"
    assert crash_site(EngineProcessError("engine sent an unexpected message during apply: {}")) == "protocol_error"
    assert crash_site(EngineTimeout("engine did not answer apply within 1 s")) == "timeout"


def test_an_isolated_engine_keeps_the_key_of_its_crash(monkeypatch):
    """The same crash in process and served from a child (--isolate) has one key: the child's
    internal_error answer carries the exception's type and traceback. (Not the KeyError of
    _sacrifice: harness.serve answers any KeyError as unknown_game.)"""
    monkeypatch.chdir(ROOT)
    scenario = {"format": scenario_file.FORMAT, "board": {"players": [{"id": "P1"}, {"id": "P2"}], "objects": [
        {"id": "a", "card": "Grizzly Bears", "owner": "P1"}]}, "steps": [
        {"event": {"type": "damage", "source": "a", "target": "P2", "amount": 1}},
        {"event": {"type": "sacrifice", "object": "a"}}]}
    isolated = load_engine(f"{THIS}:two_crashes", isolate=True)
    try:
        assert _replay_keys(isolated, scenario) == _replay_keys(TwoCrashes(), scenario) == [AFTER_DAMAGE]
    finally:
        isolated.close()


# ------------------------------------------------------------------- one key in both modes
def test_a_difference_another_invariant_caught_has_that_invariants_key():
    order = list(REGISTRY)
    assert order.index("differential.matches_reference") < order.index("sba.deathtouch_damage") \
        < order.index("zones.destroyed_without_replacement_leaves")
    diff = Violation("differential.matches_reference", 1, ("[objects.*.zone] object c0 zone: engine 'battlefield' "
                                                           "vs reference 'graveyard'",))
    zones = Violation("zones.destroyed_without_replacement_leaves", 1, ("still on the battlefield",))
    sba = Violation("sba.deathtouch_damage", 1, ("704.5h",))
    assert violation_keys([diff, zones, sba]) == ["sba.deathtouch_damage", zones.invariant, sba.invariant]
    assert primary_first([diff, zones, sba], "sba.deathtouch_damage") == [sba, diff, zones]
    assert violation_keys([diff]) == ["differential.matches_reference[objects.*.zone]"]  # nothing else caught it
    later = Violation("sba.deathtouch_damage", 2, ("704.5h",))
    assert violation_keys([diff, later]) == ["differential.matches_reference[objects.*.zone]", later.invariant]


def test_the_same_bug_has_the_same_key_with_and_without_against_reference(outside_coverage):
    """The tiny engine's planted bugs; in differential mode their first violation in the registry's
    order is the difference (differential.matches_reference comes before sba.* and generic.damage_*)."""
    for bug, key in (("deathtouch_ignored", "sba.deathtouch_damage"),
                     ("damage_kept_off_battlefield", "generic.damage_only_on_battlefield")):
        engine = tiny.TinyEngine(bugs={bug})
        alone = run(engine, max_examples=40, seed=0, database=None)
        against = run(engine, max_examples=40, seed=0, database=None, against=ReferenceAdapter())
        assert [f.key for f in alone.findings] == [f.key for f in against.findings] == [key], bug
        finding = against.findings[0]
        assert finding.violation.invariant == key  # the rules invariant's violation first...
        assert "differential.matches_reference" in [v.invariant for v in finding.violations]  # ...the difference too


def test_a_fork_of_the_reference_engine_has_one_key_in_both_modes():
    engine = load_engine(f"{ROOT}/tests/mutants/sacrifice_does_nothing.py:engine")
    scenario = {"format": scenario_file.FORMAT, "board": {"players": [{"id": "P1"}, {"id": "P2"}], "objects": [
        {"id": "a", "card": "Grizzly Bears", "owner": "P1"}]}, "steps": [{"event": {"type": "sacrifice", "object": "a"}}]}
    alone = _replay_keys(engine, scenario)
    against = _replay_keys(engine, scenario, ReferenceAdapter())
    assert alone[0] == against[0] == "zones.sacrificed_goes_to_its_owners_graveyard"
    assert "zones.sacrificed_goes_to_its_owners_graveyard" in alone and len(against) > len(alone)


# ----------------------------------------------------------------------------- baselines
def _run_tiny(tmp_path, name, *options) -> tuple[int, dict]:
    report = tmp_path / f"{name}.json"
    code = main(["run", "--engine", f"{TINY}:buggy", "--keep-going", "--max-examples", "25", "--seed", "3",
                 "--database", "none", "--replay-dir", str(tmp_path / name), "--json", str(report), "--quiet",
                 *options])
    return code, json.loads(report.read_text(encoding="utf-8"))


def test_a_baseline_made_in_one_mode_covers_the_findings_of_the_other(tmp_path, capsys):
    code, alone = _run_tiny(tmp_path, "alone")
    assert code == 1
    keys = sorted(f["key"] for f in alone["findings"])
    assert keys == sorted(["sba.deathtouch_damage", "generic.damage_only_on_battlefield", "damage.player_loses_life"])
    assert main(["baseline", "--from", str(tmp_path / "alone.json"), "-o", str(tmp_path / "alone-base.json")]) == 0
    code, against = _run_tiny(tmp_path, "against", "--against", "reference", "--baseline", tmp_path / "alone-base.json")
    assert sorted(f["key"] for f in against["findings"]) == keys
    assert code == 0 and all(f["known"] for f in against["findings"])
    # ...and the other way round
    assert main(["baseline", "--from", str(tmp_path / "against.json"), "-o", str(tmp_path / "against-base.json")]) == 0
    code, again = _run_tiny(tmp_path, "again", "--baseline", tmp_path / "against-base.json")
    assert code == 0 and all(f["known"] for f in again["findings"])
    out = capsys.readouterr().out
    assert "differential.matches_reference" in out  # the difference is still printed with its finding


def test_an_old_bare_crash_key_in_a_baseline_knows_every_crash(tmp_path, monkeypatch, capsys):
    known = Known({CRASH: "crashes are issue #3", "sba.token_zone": "issue #4"})
    assert known.get(SACRIFICE) == known.get(AFTER_DAMAGE) == known.get(CRASH) == "crashes are issue #3"
    assert known.get("sba.token_zone") == "issue #4" and known.get("sba.legend_rule") is None
    assert Known({SACRIFICE: "x"}).get(AFTER_DAMAGE) is None  # a key with its site knows only that site
    monkeypatch.chdir(ROOT)
    base = tmp_path / "old.json"
    base.write_text(json.dumps({"format": "rulesfuzz-baseline/1", "findings": [{"key": CRASH, "reason": "old"}]}))
    code = main(["run", "--engine", f"{THIS}:two_crashes", "--keep-going", "--max-examples", "40", "--seed", "0",
                 "--database", "none", "--replay-dir", str(tmp_path / "out"), "--quiet", "--baseline", str(base)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert SACRIFICE in out and AFTER_DAMAGE in out
