"""No vacuous pass (issue 22 item 4): an engine that refuses (IllegalAction) what it claims is
not tested by a run, which exits 2 (status ``refused``) with the refusal reasons, and fails
``rulesfuzz check``. Correct engines don't trip it: events aimed at objects off the battlefield
(generated illegal on purpose) are not counted."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import jsonschema

from harness.interfaces.cli import main
from harness.running.execution import Stats, _aims_at_gone
from harness.reporting.report import run_report_schema, run_status
from harness.running.runner import RunResult

REFUSING = '''
from harness.protocol import EngineInfo, IllegalAction
from examples.engines.tiny.engine import engine as tiny


class Game:
    def __init__(self, inner):
        self.inner = inner

    def apply(self, event, decider):
        if event.get("type") in KINDS:
            raise IllegalAction("not_today")
        return self.inner.apply(event, decider)

    def observe(self):
        return self.inner.observe()


class Refusing:
    info = tiny.info

    def new_game(self, board):
        return Game(tiny.new_game(board))


KINDS = {kinds!r}
engine = Refusing()
'''


def _engine(tmp_path, kinds) -> str:
    path = tmp_path / "refusing.py"
    path.write_text(REFUSING.format(kinds=set(kinds)), encoding="utf-8")
    return f"{path}:engine"


def _run(tmp_path, spec, *extra):
    return main(["run", "--engine", spec, "--max-examples", "30", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path / "replays"), "--json", str(tmp_path / "run.json"),
                 "--junit-xml", str(tmp_path / "run.xml"), *extra])


def test_an_engine_that_refuses_every_event_exits_2_with_its_reasons(tmp_path, capsys):
    spec = _engine(tmp_path, ["cast", "damage", "destroy", "sacrifice"])  # all it claims (and cast)
    assert _run(tmp_path, spec) == 2
    out, err = capsys.readouterr()
    line = [entry for entry in err.splitlines() if entry.startswith("rulesfuzz: error:")]
    assert len(line) == 1 and "refused" in line[0] and "not_today" in line[0], err
    assert "No violation" not in out
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, run_report_schema())
    assert (data["status"], data["exit_code"]) == ("refused", 2)
    assert {reason for reasons in data["stats"]["refused_events"].values() for reason in reasons} == {"not_today"}
    error = ET.parse(tmp_path / "run.xml").getroot().find("testsuite/testcase[@name='run']/error")
    assert error is not None and error.get("type") == "refused" and "not_today" in error.get("message")


def test_one_claimed_event_kind_never_accepted_exits_2(tmp_path, capsys):
    spec = _engine(tmp_path, ["damage"])
    assert main(["run", "--engine", spec, "--max-examples", "120", "--database", "none", "--quiet",
                 "--replay-dir", str(tmp_path / "replays")]) == 2
    err = capsys.readouterr().err
    assert "never accepted damage" in err and "not_today" in err


def test_the_tiny_engine_is_not_refused(tmp_path, capsys):
    """The tiny engine refuses about half the events it gets, nearly all aimed at objects that
    left the battlefield: not counted, so its run passes."""
    assert main(["run", "--engine", "examples/engines/tiny/engine.py:engine", "--max-examples", "60",
                 "--database", "none", "--quiet", "--replay-dir", str(tmp_path / "r"),
                 "--json", str(tmp_path / "run.json")]) == 0
    stats = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["stats"]
    assert stats["aimed_at_gone"] and stats["illegal_events"] > 0


def test_the_rule_counts_what_it_documents():
    claimed = {"damage", "cast", "activate"}  # only claimed event types are judged
    assert not Stats(steps=40, events={"put_onto_battlefield": 40}, illegal=40,
                     refused={"put_onto_battlefield": {"no": 40}}, claimed={"damage"}).mostly_refused()
    stats = Stats(steps=40, events={"damage": 25, "cast": 15}, illegal=30, claimed=claimed,
                  refused={"damage": {"x": 10}}, aimed_at_gone={"damage": 20})
    # 10 of the 20 counted steps refused: not more than half; damage: 5 counted, fewer than 20
    assert not stats.mostly_refused()
    stats.refused["cast"] = {"y": 11}  # 21 of 20 counted... of 20: more than half
    assert stats.mostly_refused()
    never = Stats(steps=100, events={"damage": 20, "cast": 80}, illegal=20, refused={"damage": {"no": 20}}, claimed=claimed)
    assert never.never_accepted() == ["damage"] and never.mostly_refused()
    lacking = Stats(steps=100, events={"activate": 30, "cast": 70}, illegal=30,
                    refused={"activate": {"no_such_ability": 25, "already_tapped": 5}}, claimed=claimed)
    assert lacking.never_accepted() == [] and not lacking.mostly_refused()
    small = Stats(steps=3, events={"cast": 3}, illegal=3, refused={"cast": {"no": 3}}, claimed=claimed)
    assert not small.mostly_refused()  # fewer than 20 counted steps: too few to say
    assert run_status(RunResult("e", never)) == "refused"
    assert run_status(RunResult("e", never, cut_short="interrupted")) == "interrupted"


def test_events_aimed_at_objects_off_the_battlefield():
    before = {"players": {"P1": {}}, "objects": {"c1": {"zone": "battlefield"}, "c2": {"zone": "graveyard"}}}
    assert not _aims_at_gone({"type": "damage", "source": "c1", "target": "P1"}, before)
    assert _aims_at_gone({"type": "damage", "source": "c2", "target": "P1"}, before)
    assert _aims_at_gone({"type": "destroy", "targets": ["c1", "c9"]}, before)
    assert not _aims_at_gone({"type": "put_onto_battlefield", "id": "n1", "card": "Grizzly Bears"}, before)
    assert not _aims_at_gone({"type": "cast", "card": "Shock", "targets": ["P1"]}, before)
    assert _aims_at_gone({"type": "attach", "aura": "c1", "attach_to": "c2"}, before)  # any naming field, in any order
    assert not _aims_at_gone({"type": "destroy", "targets": "c2"}, before)  # targets that are no list name nothing


def test_only_entries_of_the_labelled_kinds_are_counted_as_interactions():
    """``Stats.count_interactions`` looks only at entries of ``run_stats._INTERACTION_KINDS``: every
    kind of the log vocabulary whose entry :func:`run_stats._interaction` labels is one of them."""
    from harness.running import run_stats
    from harness.wire.log_kinds import KINDS

    rich = {"cause": {"event": "state_based_action", "rule": "704.5f", "copy_of": "c0"}, "effect": "umbra armor",
            "rule": "704.5a", "tapped_for_mana": True, "mana": {"G": 1}, "replacements": []}
    labelled = {k.kind for k in KINDS if run_stats._interaction({**rich, "kind": k.kind})}
    assert labelled <= run_stats._INTERACTION_KINDS and "zone_change" in labelled
    log = [{**rich, "kind": k.kind} for k in KINDS] + [{"kind": "zone_change", "cause": {"event": "cast", "copy_of": "c"}}]
    stats = Stats()
    stats.count_interactions(log)
    want: dict = {}
    for entry in log:
        label = run_stats._interaction(entry)
        if label:
            want[label] = want.get(label, 0) + 1
    assert stats.interactions == want and want["copy entered"] == 1


def test_check_fails_an_engine_that_refuses_legal_events(tmp_path, capsys):
    spec = _engine(tmp_path, ["cast", "damage", "destroy", "sacrifice"])
    assert main(["check", "--engine", spec]) == 1
    out = capsys.readouterr().out
    line = next(entry for entry in out.splitlines() if "accepts_legal_events" in entry)
    assert line.startswith("FAIL") and "not_today" in line
    assert main(["check", "--engine", "examples/engines/tiny/engine.py:engine"]) == 0
    assert any(e.split()[:2] == ["PASS", "accepts_legal_events:"] for e in capsys.readouterr().out.splitlines())
