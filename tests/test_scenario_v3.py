"""Scenario files, ``rulesfuzz-scenario/3``: ``expect`` states a step's log entries and the
questions asked, ``expect_initial`` the board before the first event, and replay is strict
(a question the file records no answer for fails it). ``/2`` files replay as before.

Expected values come from the rules: a destroyed permanent moves from the battlefield to
its owner's graveyard (CR 701.7a) and its counters don't go with it (CR 122.2, 400.7); a
2/2 with a +1/+1 counter is 3/3 (CR 122.1a, 613.4c); when a creature with two umbra Auras
would be destroyed, its controller chooses which umbra armor applies (CR 616.1, 702.89a;
Umbra Mystic ruling 2024-06-07) and exactly that Aura is destroyed instead; Shock deals 2
damage (its Oracle text); a refused event changes nothing (CR 101.1 aside, the protocol's
IllegalAction) and logs nothing.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from harness.running import scenario as scenario_file
from harness.adapters.reference import ReferenceAdapter
from harness.interfaces.cli import main
from harness.protocol import Violation
from harness.running.recording import Recorder

from .conftest import ROOT, one_error_line

DOCS = ROOT / "docs" / "scenarios.md"
PICKS_AURA = f"{ROOT / 'tests/mutants/engine_picks_aura.py'}:engine"
PHASE = ROOT / "examples/engines/phase"
V3, V2 = scenario_file.FORMAT_3, scenario_file.FORMAT
PLAYERS = [{"id": "P1", "life": 20}, {"id": "P2", "life": 20}]


def write(tmp_path, scenario: dict, name: str = "scenario.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return str(path)


def replay(tmp_path, scenario: dict, *options: str, engine: str = "reference") -> tuple[int, str]:
    """Exit code and stdout of ``rulesfuzz replay`` on ``scenario``."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["replay", write(tmp_path, scenario), "--engine", engine, *options])
    return code, out.getvalue()


def bears_board(**bears) -> dict:
    return {"players": PLAYERS, "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1", **bears}]}


def murder(expect: dict, fmt: str = V3, **top) -> dict:
    """Murder (P2's) on P1's Grizzly Bears."""
    return copy.deepcopy({"format": fmt, "board": bears_board(), **top,
                          "steps": [{"event": {"type": "cast", "card": "Murder", "controller": "P2",
                                               "targets": ["bears"]}, "expect": expect}]})


BEARS_TO_GRAVEYARD = {"kind": "zone_change", "object": "bears", "from": "battlefield", "to": "graveyard"}
UMBRAS = {"players": PLAYERS, "objects": [
    {"id": "bears", "card": "Grizzly Bears", "owner": "P1"},
    {"id": "hyena", "card": "Hyena Umbra", "owner": "P1", "attached_to": "bears"},
    {"id": "boar", "card": "Boar Umbra", "owner": "P2", "attached_to": "bears"},
]}
WRATH = {"type": "cast", "card": "Wrath of God", "controller": "P2", "targets": []}
CHOICE = {"kind": "replacement_effect", "player": "P1", "options": ["umbra armor:hyena", "umbra armor:boar"]}


def wrath(fmt: str = V3, decisions=None, expect=None, before=()) -> dict:
    """Wrath of God (P2's) on Grizzly Bears wearing P1's Hyena Umbra and P2's Boar Umbra."""
    step = {"event": WRATH}
    if decisions is not None:
        step["decisions"] = decisions
    if expect is not None:
        step["expect"] = expect
    return copy.deepcopy({"format": fmt, "board": UMBRAS, "steps": [*before, step]})


def answer(option: str, **changes) -> dict:
    return {**CHOICE, "answer": option, **changes}


# ---------------------------------------------------------------- the docs' examples
def doc_examples() -> list[tuple[dict, int, list[str]]]:
    """Each complete scenario of docs/scenarios.md: (scenario, exit code, output lines shown).

    A ``<!-- replay: exit N -->`` line before the block gives the exit code (default 0);
    a ```text block right after it holds lines the replay must print."""
    text = DOCS.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"(<!-- replay: exit (\d) -->\n)?```json\n(.*?)\n```\n", text, flags=re.S):
        data = json.loads(m.group(3))
        if not isinstance(data, dict) or "board" not in data:
            continue
        rest = text[m.end():].lstrip("\n")
        shown = []
        if rest.startswith("```text\n"):
            shown = [line for line in rest[len("```text\n"):rest.index("\n```")].splitlines() if line.strip()]
        found.append((data, int(m.group(2) or 0), shown))
    return found


def test_the_docs_have_examples_of_each_format_and_outcome():
    examples = doc_examples()
    assert {d["format"] for d, _, _ in examples} >= {V3, V2}
    assert {code for _, code, _ in examples} == {0, 1}
    assert any("UNANSWERED" in line for _, _, shown in examples for line in shown)


@pytest.mark.parametrize("index", range(len(doc_examples())))
def test_each_example_of_the_docs_validates_and_replays_as_shown(index, tmp_path):
    data, code, shown = doc_examples()[index]
    scenario_file.validate(data, "docs example")
    got, out = replay(tmp_path, data)
    assert got == code, out
    for line in shown:
        assert line in out, out


# ---------------------------------------------------------------- the log
def test_murder_logs_the_bears_moving_to_the_graveyard_matched_as_a_subset(tmp_path):
    """CR 701.7a; the cause names its event only (a dict field is matched by subset)."""
    entry = {**BEARS_TO_GRAVEYARD, "cause": {"event": "destroy"}}
    code, out = replay(tmp_path, murder({"log": [entry]}))
    assert code == 0, out


def test_a_wrong_log_expectation_fails_saying_what_was_expected_and_seen(tmp_path):
    code, out = replay(tmp_path, murder({"log": [{**BEARS_TO_GRAVEYARD, "to": "exile"}]}))
    assert code == 1
    line = next(line for line in out.splitlines() if line.startswith("EXPECTATION at step 1: log:"))
    assert '"to": "exile"' in line and "the step logged none" in line
    assert '"to": "graveyard"' in line  # what was seen: its zone_change entries


def test_an_entry_of_a_kind_not_logged_names_the_kinds_that_were(tmp_path):
    code, out = replay(tmp_path, murder({"log": [{"kind": "life_gained"}]}))
    assert code == 1
    assert "it logged no life_gained entry (only ['zone_change'" in out


def test_each_entry_listed_needs_an_observed_entry_of_its_own(tmp_path):
    """One Grizzly Bears is destroyed once (CR 701.7a): two zone changes expected, one logged."""
    code, out = replay(tmp_path, murder({"log": [{"kind": "zone_change"}, {"kind": "zone_change"}]}))
    assert code == 1
    assert "expected one more entry matching {\"kind\": \"zone_change\"}" in out


def two_destroyed(expect: dict) -> dict:
    """An effect destroys Grizzly Bears and Typhoid Rats at once: each moves to the graveyard
    (CR 701.7a) and nothing else happens (neither has an ability that triggers)."""
    board = {"players": PLAYERS, "objects": [{"id": "bears", "card": "Grizzly Bears", "owner": "P1"},
                                             {"id": "rats", "card": "Typhoid Rats", "owner": "P2"}]}
    return {"format": V3, "board": board,
            "steps": [{"event": {"type": "destroy", "targets": ["bears", "rats"], "cant_be_regenerated": False},
                       "expect": expect}]}


RATS_TO_GRAVEYARD = {"kind": "zone_change", "object": "rats", "from": "battlefield", "to": "graveyard"}


def test_log_order_does_not_matter_and_log_exact_holds_when_every_entry_is_listed(tmp_path):
    for entries in ([BEARS_TO_GRAVEYARD, RATS_TO_GRAVEYARD], [RATS_TO_GRAVEYARD, BEARS_TO_GRAVEYARD]):
        code, out = replay(tmp_path, two_destroyed({"log": entries, "log_exact": True}))
        assert code == 0, out


def test_log_exact_fails_on_an_entry_not_listed_and_names_it(tmp_path):
    code, out = replay(tmp_path, two_destroyed({"log": [BEARS_TO_GRAVEYARD], "log_exact": True}))
    assert code == 1
    extra = [line for line in out.splitlines() if "also logged" in line]
    assert len(extra) == 1 and '"object": "rats"' in extra[0] and "(log_exact)" in extra[0], out
    code, out = replay(tmp_path, two_destroyed({"log": [BEARS_TO_GRAVEYARD]}))  # not exact: other entries allowed
    assert code == 0, out


def test_a_refused_step_logs_nothing(tmp_path):
    """Sacrificing a permanent that is not on the battlefield is refused: nothing happens."""
    steps = [{"event": {"type": "sacrifice", "object": "bears"}, "illegal": True, "expect": {"log": [], "log_exact": True}}]
    scenario = {"format": V3, "board": bears_board(zone="graveyard"), "steps": steps}
    assert replay(tmp_path, scenario)[0] == 0
    steps[0]["expect"] = {"log": [{"kind": "zone_change"}]}
    code, out = replay(tmp_path, scenario)
    assert code == 1 and "it logged nothing" in out


def test_log_matching_is_one_to_one_and_a_broad_entry_never_takes_a_narrower_ones_match():
    log = [{"kind": "zone_change", "object": "a", "to": "graveyard"},
           {"kind": "zone_change", "object": "b", "to": "exile"}]
    broad_first = {"log": [{"kind": "zone_change"}, {"kind": "zone_change", "object": "a"}], "log_exact": True}
    assert scenario_file.log_differences(broad_first, log) == []
    assert scenario_file.log_differences({"log": [{"kind": "zone_change", "object": "a"}] * 2}, log) != []


def test_log_ordered_checks_the_order_of_the_entries_listed():
    log = [{"kind": "zone_change", "object": "a"}, {"kind": "trigger", "source": "x"},
           {"kind": "zone_change", "object": "b"}]
    a, b = {"kind": "zone_change", "object": "a"}, {"kind": "zone_change", "object": "b"}
    assert scenario_file.log_differences({"log": [a, b], "log_ordered": True}, log) == []
    wrong = scenario_file.log_differences({"log": [b, a], "log_ordered": True}, log)
    assert len(wrong) == 1 and "(log_ordered)" in wrong[0]
    assert scenario_file.log_differences({"log": [b, a]}, log) == []
    both = scenario_file.log_differences({"log": [a, b], "log_ordered": True, "log_exact": True}, log)
    assert both == ['log[1]: expected an entry matching {"kind": "zone_change", "object": "b"}, got '
                    '{"kind": "trigger", "source": "x"} (log_ordered)',
                    'log[2]: the step also logged {"kind": "zone_change", "object": "b"}, which no expected entry '
                    'matches (log_exact)']


def test_a_log_entry_field_other_than_a_dict_is_compared_exactly():
    entry = {"kind": "damage", "source": "s", "target": "t", "amount": 2, "deathtouch": False}
    assert scenario_file.entry_matches({"kind": "damage", "amount": 2}, entry)
    assert not scenario_file.entry_matches({"kind": "damage", "deathtouch": 0}, entry)  # false is not 0
    assert not scenario_file.entry_matches({"kind": "damage", "amount": 2.5}, entry)


# ---------------------------------------------------------------- the decisions asked
def test_the_creatures_controller_is_asked_which_umbra_applies_options_as_a_set(tmp_path):
    """CR 616.1: P1 controls the Bears; the options in another order are the same question."""
    expect = {"decisions": [{**CHOICE, "options": list(reversed(CHOICE["options"]))}],
              "objects": {"bears": {"zone": "battlefield"}, "hyena": {"zone": "battlefield"},
                          "boar": {"zone": "graveyard"}}}
    code, out = replay(tmp_path, wrath(decisions=[answer("umbra armor:boar")], expect=expect))
    assert code == 0, out


def test_expecting_the_wrong_player_to_be_asked_fails_naming_the_missing_and_the_extra_question(tmp_path):
    expect = {"decisions": [{**CHOICE, "player": "P2"}]}  # the caster of Wrath of God does not choose
    code, out = replay(tmp_path, wrath(decisions=[answer("umbra armor:boar")], expect=expect))
    assert code == 1
    assert "decisions: expected the engine to ask replacement_effect of P2 with options " in out
    assert "but it did not; it asked replacement_effect of P1 with options" in out
    assert "decisions: the engine also asked replacement_effect of P1 with options" in out
    assert "which expect.decisions does not list" in out


def test_no_decisions_expected_fails_when_one_is_asked_and_passes_when_none_is(tmp_path):
    code, out = replay(tmp_path, wrath(decisions=[answer("umbra armor:boar")], expect={"decisions": []}))
    assert code == 1 and "the engine also asked replacement_effect of P1" in out
    assert replay(tmp_path, murder({"decisions": []}))[0] == 0  # Murder's target is the event's: no question


def test_expected_decisions_find_an_engine_that_chooses_for_its_player(tmp_path):
    """The mutant picks an umbra Aura without asking P1 (CR 616.1): expect.decisions says so,
    with no other engine to compare with."""
    expect = {"decisions": [{"kind": "replacement_effect", "player": "P1"}]}
    code, out = replay(tmp_path, wrath(decisions=[answer("umbra armor:boar")], expect=expect), engine=PICKS_AURA)
    assert code == 1
    assert "expected the engine to ask replacement_effect of P1, but it did not; it asked nothing" in out
    assert replay(tmp_path, wrath(decisions=[answer("umbra armor:boar")], expect=expect))[0] == 0


# ---------------------------------------------------------------- strict replay
UNANSWERED = re.compile(r"UNANSWERED: the engine asked replacement_effect of P1 with options \[(.*)\] at step (\d+); "
                        r"the scenario recorded no answer")


def unanswered(out: str) -> tuple[set, int]:
    m = UNANSWERED.search(out)
    assert m, out
    return {o.strip(" '") for o in m.group(1).split(",")}, int(m.group(2))


def test_a_question_the_file_does_not_answer_fails_a_v3_replay_at_its_step(tmp_path):
    code, out = replay(tmp_path, wrath())
    assert code == 1
    assert unanswered(out) == (set(CHOICE["options"]), 1)
    assert "No violation" not in out


def test_the_step_number_is_the_questions_step(tmp_path):
    shock = {"event": {"type": "cast", "card": "Shock", "controller": "P2", "targets": ["P1"]},
             "expect": {"players": {"P1": {"life": 18}}, "decisions": []}}  # Shock: 2 damage
    code, out = replay(tmp_path, wrath(before=[shock]))
    assert code == 1 and unanswered(out)[1] == 2


def test_no_strict_answers_the_first_option_as_v2_does(tmp_path):
    code, out = replay(tmp_path, wrath(expect={"objects": {"bears": {"zone": "battlefield"}}}), "--no-strict")
    assert code == 0, out
    assert "with no recorded answer: answered" in out


def test_a_v2_file_replays_as_before_and_strictly_with_strict(tmp_path):
    scenario = wrath(V2, expect={"objects": {"bears": {"zone": "battlefield"}}})
    code, out = replay(tmp_path, scenario)
    assert code == 0, out
    assert "with no recorded answer: answered" in out and "UNANSWERED" not in out
    code, out = replay(tmp_path, scenario, "--strict")
    assert code == 1 and unanswered(out) == (set(CHOICE["options"]), 1)


def test_v2_answers_are_matched_in_order_with_their_options_as_a_list(tmp_path):
    """As before: a v2 record whose options are in another order doesn't cover the question
    (the first option is given, with notes); in v3 it does."""
    record = answer("umbra armor:boar", options=list(reversed(CHOICE["options"])))
    code, out = replay(tmp_path, wrath(V2, decisions=[record]))
    assert code == 0 and "with no recorded answer" in out and "was not asked for" in out
    assert replay(tmp_path, wrath(V2, decisions=[record]), "--strict")[0] == 1
    code, out = replay(tmp_path, wrath(decisions=[record], expect={"objects": {"boar": {"zone": "graveyard"}}}))
    assert code == 0 and "note:" not in out, out


def test_a_record_for_another_player_does_not_cover_the_question(tmp_path):
    code, out = replay(tmp_path, wrath(decisions=[answer("umbra armor:boar", player="P2")]))
    assert code == 1 and unanswered(out)[1] == 1
    assert replay(tmp_path, wrath(decisions=[{"kind": "replacement_effect", "answer": "umbra armor:boar"}]))[0] == 0


def test_an_answer_the_engine_never_asks_for_is_a_note_not_a_failure(tmp_path):
    scenario = murder({})
    scenario["steps"][0]["decisions"] = [answer("umbra armor:boar")]
    code, out = replay(tmp_path, scenario)
    assert code == 0, out
    assert "was not asked for" in out


class _Swallowing:
    """An engine that catches every exception of its decider and goes on with the first option."""

    def __init__(self, inner):
        self.inner, self.info = inner, inner.info

    def new_game(self, board):
        game = self.inner.new_game(board)
        outer = self

        class Game:
            def apply(self, event, decider):
                game.apply(event, outer.Decider(decider))

            def observe(self):
                return game.observe()

        return Game()

    class Decider:
        def __init__(self, decider):
            self.decider = decider

        def choose(self, player, kind, options):
            try:
                return self.decider.choose(player, kind, options)
            except Exception:  # noqa: BLE001  the engine's own mistake, on purpose
                return options[0]

        def flip_coin(self, player):
            return self.decider.flip_coin(player)

        def roll_die(self, player, sides):
            return self.decider.roll_die(player, sides)


def test_an_engine_that_swallows_the_unanswered_question_still_fails_the_strict_replay():
    result = scenario_file.replay(_Swallowing(ReferenceAdapter()), wrath(), ())
    assert not result.ok and result.unanswered is not None
    assert result.unanswered[0] == 1 and "the scenario recorded no answer" in result.unanswered[1]


def test_differential_the_reference_engines_own_question_is_named_and_not_the_engines(tmp_path):
    """The mutant asks nothing; with --against the reference engine asks P1 (CR 616.1). Its
    question needs a recorded answer in a strict replay, and is no question of the engine's."""
    code, out = replay(tmp_path, wrath(), "--against", "reference", engine=PICKS_AURA)
    assert code == 1
    assert "UNANSWERED: the reference engine asked replacement_effect of P1" in out
    # With the answer recorded the replay goes on: the engine itself was asked nothing, as
    # expect.decisions says (the reference's question is not the engine's); the invariant of
    # CR 616.1 still finds that nobody was asked.
    scenario = wrath(decisions=[answer("umbra armor:boar")], expect={"decisions": []})
    code, out = replay(tmp_path, scenario, "--against", "reference", engine=PICKS_AURA)
    assert code == 1 and "VIOLATION umbra_armor.controller_chooses_the_aura at step 1" in out, out
    assert "EXPECTATION" not in out and "UNANSWERED" not in out


# ---------------------------------------------------------------- the board before the first event
def test_an_expectation_before_the_first_event_checks_the_board_as_observed(tmp_path):
    """A 2/2 with a +1/+1 counter is 3/3 (CR 122.1a, 613.4c)."""
    scenario = murder({"objects": {"bears": {"zone": "graveyard", "counters": {}}}},
                      expect_initial={"objects": {"bears": {"power": 3, "toughness": 3, "counters": {"+1/+1": 1}},
                                                  "ghost": None},
                                      "zones": {"battlefield": ["bears"], "graveyard": {"P1": []}}})
    scenario["board"] = bears_board(counters={"+1/+1": 1})
    code, out = replay(tmp_path, scenario)
    assert code == 0, out


def test_a_wrong_initial_expectation_fails_before_the_first_event_and_the_steps_still_run(tmp_path):
    scenario = murder({"objects": {"bears": {"zone": "exile"}}},
                      expect_initial={"objects": {"bears": {"power": 2}}})
    scenario["board"] = bears_board(counters={"+1/+1": 1})
    code, out = replay(tmp_path, scenario)
    assert code == 1
    assert "EXPECTATION before the first event: objects.bears.power: expected 2, got 3" in out
    assert "EXPECTATION at step 1: objects.bears.zone: expected 'exile', got 'graveyard'" in out


def test_an_initial_expectation_with_no_steps(tmp_path):
    scenario = {"format": V3, "board": bears_board(), "expect_initial": {"objects": {"bears": {"zone": "hand"}}},
                "steps": []}
    code, out = replay(tmp_path, scenario)
    assert code == 1 and "before the first event: objects.bears.zone: expected 'hand', got 'battlefield'" in out


# ---------------------------------------------------------------- bad files: exit 2, the file, the step, the field
@pytest.mark.parametrize("change, words", [
    (lambda s: s.update(format=V2), 'step 1: steps/0/expect/log: expect.log needs "format": "rulesfuzz-scenario/3" '
                                    '(this file is rulesfuzz-scenario/2)'),
    (lambda s: s["steps"][0]["expect"]["log"][0].pop("kind"), "step 1: steps/0/expect/log/0: 'kind' is a required "
                                                              "property"),
    (lambda s: s["steps"][0]["expect"].update(decisions=[{"kind": "target", "answer": "x"}]),
     "step 1: steps/0/expect/decisions/0: Additional properties are not allowed ('answer' was unexpected)"),
    (lambda s: s["steps"][0]["expect"].update(decisions=[{"kind": "target", "options": [1]}]),
     "step 1: steps/0/expect/decisions/0/options/0: 1 is not of type 'string'"),
    (lambda s: s["steps"][0]["expect"].pop("log"), "step 1: steps/0/expect: 'log' is a dependency of 'log_exact'"),
    (lambda s: s.update(expect_initial={"illegal": True}),
     "before the first event: expect_initial: Additional properties are not allowed ('illegal' was unexpected)"),
    (lambda s: s.update(format=V2, expect_initial={}), "before the first event: expect_initial: an expectation before "
                                                       'the first event needs "format": "rulesfuzz-scenario/3"'),
    (lambda s: s["steps"].append({"event": {"type": "destory", "targets": ["bears"]}}),
     "step 2: steps/1/event/type: unknown event type 'destory'"),
])
def test_a_malformed_v3_file_is_bad_input_naming_the_file_the_step_and_the_field(change, words, tmp_path, capsys):
    scenario = murder({"log": [BEARS_TO_GRAVEYARD], "log_exact": True})
    change(scenario)
    path = write(tmp_path, scenario)
    assert main(["replay", path, "--engine", "reference"]) == 2
    line = one_error_line(capsys)
    assert line.startswith(f"rulesfuzz: error: {path}: ") and words in line, line


def test_the_schema_alone_refuses_v3_fields_in_a_v2_file():
    """For other tools validating against harness/schema/scenario.schema.json."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(scenario_file.schema())
    assert validator.is_valid(murder({"log": [BEARS_TO_GRAVEYARD]}))
    assert not validator.is_valid(murder({"log": [BEARS_TO_GRAVEYARD]}, V2))
    assert not validator.is_valid(murder({"decisions": []}, V2))
    assert not validator.is_valid(murder({}, V2, expect_initial={}))
    assert validator.is_valid(murder({"objects": {"bears": None}}, V2))


# ---------------------------------------------------------------- what the harness writes
class LastOption:
    """A decider as the run's: answers (here the last option) and records every question."""

    def __init__(self):
        self.asked = []

    def choose(self, player, kind, options):
        from harness.protocol import Decision

        self.asked.append(Decision(player, kind, tuple(options), options[-1]))
        return options[-1]


@pytest.mark.parametrize("differential", [False, True], ids=["plain", "against_reference"])
def test_a_freshly_written_finding_records_every_question_and_replays_strictly(differential, tmp_path):
    """``rulesfuzz run`` writes /2 files (:data:`harness.running.scenario.FORMAT`) from the session's
    steps; with every question recorded (in differential mode the reference engine's own
    too), a strict replay answers each from the file and reaches the same game."""
    from harness.running.execution import Session
    from harness.connection.loading import load_engine

    engine = load_engine(PICKS_AURA) if differential else ReferenceAdapter()
    session = Session(engine, copy.deepcopy(UMBRAS), (), against=ReferenceAdapter() if differential else None)
    session.step(copy.deepcopy(WRATH), LastOption())
    recorder = Recorder(tmp_path, engine)
    recorder.violation(session, [Violation("generic.example", 1, ("planted",))], engine, 1, key="planted")
    written = scenario_file.load(recorder.pending_path("planted"))
    assert written["format"] == V2
    assert [d["kind"] for d in written["steps"][0]["decisions"]] == ["replacement_effect"]
    result = scenario_file.replay(engine, written, (), strict=True, keep_session=True,
                                  against=ReferenceAdapter() if differential else None)
    assert result.ok and result.unanswered is None and result.notes == [], result
    zones = {oid: o["zone"] for oid, o in result.session.observation["objects"].items()}
    assert zones == {"bears": "battlefield", "hyena": "battlefield", "boar": "graveyard"}  # the answer recorded


def test_the_hand_written_examples_replay_the_same_strictly(tmp_path, capsys):
    for path in sorted((ROOT / "examples/scenarios").glob("*.json")):
        for strict in ("--strict", "--no-strict"):
            assert main(["replay", str(path), "--engine", "reference", strict]) == 0, path
            assert "UNANSWERED" not in capsys.readouterr().out


@pytest.mark.parametrize("path", sorted((PHASE / "corpus").glob("*.json")), ids=lambda p: p.stem)
def test_the_phase_corpus_replays_the_same_strictly(path, capsys):
    """Its files were written by ``rulesfuzz run``: every question is recorded, so --strict
    changes nothing: they still fail on phase and pass on the reference engine."""
    pytest.importorskip("phase")
    scenario = json.loads(path.read_text())
    against = ["--against", "reference"] if "differential." in json.dumps(
        [scenario.get("violation"), scenario.get("also_violated")]) else []
    spec = f"{PHASE / 'engine.py'}:engine"
    assert main(["replay", str(path), "--engine", spec, "--strict", *against]) == 1
    assert "UNANSWERED" not in capsys.readouterr().out
    assert main(["replay", str(path), "--engine", "reference", "--strict", *against]) == 0
    assert "UNANSWERED" not in capsys.readouterr().out


# ---------------------------------------------------------------- chance: coins and dice are questions too
def dice(answers: list[int], expect: dict | None = None) -> dict:
    """P1 rolls two six-sided dice (CR 706.1): two rolls, each a ``d6`` question of P1's."""
    step = {"event": {"type": "roll_dice", "player": "P1", "count": 2, "sides": 6},
            "decisions": [{"player": "P1", "kind": "d6", "answer": a} for a in answers]}
    if expect is not None:
        step["expect"] = expect
    return {"format": V3, "board": {"players": PLAYERS, "objects": []}, "steps": [step]}


def test_each_die_rolled_is_a_question_and_an_unrecorded_roll_fails_strictly(tmp_path, capsys):
    code, out = replay(tmp_path, dice([3, 5], {"decisions": [{"kind": "d6", "player": "P1"}] * 2}))
    assert code == 0, out
    code, out = replay(tmp_path, dice([3]))
    assert code == 1
    assert "UNANSWERED: the engine asked d6 of P1 (a die roll) at step 1; the scenario recorded no answer" in out
    # Not strict: a die roll has no first option to give, as for a /2 file: bad input.
    assert main(["replay", write(tmp_path, dice([3])), "--engine", "reference", "--no-strict"]) == 2
    assert "records no answer" in one_error_line(capsys)


def test_an_unrecorded_coin_flip_fails_strictly_and_gets_heads_otherwise(tmp_path):
    """An effect has P1 flip a coin (CR 705.1): a ``coin_flip`` question of P1's, heads or tails."""
    scenario = {"format": V3, "board": {"players": PLAYERS, "objects": []},
                "steps": [{"event": {"type": "flip_coins", "player": "P1", "count": 1, "calls": False}}]}
    code, out = replay(tmp_path, scenario)
    assert code == 1
    assert "the engine asked coin_flip of P1 with options ['heads', 'tails'] at step 1" in out
    code, out = replay(tmp_path, scenario, "--no-strict")
    assert code == 0 and "answered 'heads'" in out


def test_a_scenarios_board_takes_every_field_of_a_board():
    """The files ``rulesfuzz run`` writes hold the board as generated (board.schema.json): each
    of its fields, and each field of its objects, is a field of a scenario's board."""
    from harness.wire import schemas

    board, mine = schemas.load("board"), scenario_file.schema()["$defs"]
    assert set(board["properties"]) <= set(mine["board"]["properties"])
    objects = board["properties"]["objects"]["items"]
    objects = board["$defs"][objects["$ref"].rsplit("/", 1)[1]] if "$ref" in objects else objects
    assert set(objects["properties"]) <= set(mine["object"]["properties"])
