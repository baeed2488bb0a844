"""The Node.js engine (examples/engines/node/engine.js) over the wire protocol: fuzzed clean,
each planted bug found by the invariant of the rule it breaks, and the same rules as the
Python tiny engine. These tests need ``node``: without it they fail (CI installs it)."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import invariants
from harness.interfaces.cli import main
from harness.running.decider import ReplayDecider
from harness.connection.loading import load_engine
from harness.protocol import IllegalAction, Unsupported
from harness.running.runner import run

from .conftest import ROOT

ENGINE_JS = ROOT / "examples" / "engines" / "node" / "engine.js"
TINY = f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:engine"
#: Each planted bug and the CR rule it breaks (the rule the finding must cite).
BUGS = {
    "deathtouch_ignored": "704.5h",
    "damage_kept_off_battlefield": "400.7",
    "damage_to_wrong_player": "120.3a",
}


def node(*bugs: str) -> str:
    if shutil.which("node") is None:
        pytest.fail("node is not installed; the Node.js engine tests need it (.ci/run installs the Debian "
                    "package: apt-get install -y nodejs)")
    return f"exec:node {ENGINE_JS}" + "".join(f" --bug {b}" for b in bugs)


def test_the_node_engine_fuzzes_clean(tmp_path, capsys, outside_coverage):
    code = main(["run", "--engine", node(), "--max-examples", "80", "--seed", "1", "--replay-dir", str(tmp_path),
                 "--database", "none", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "No violation" in out and not list(tmp_path.iterdir())


def test_the_node_engine_passes_the_conformance_check(capsys):
    assert main(["check", "--engine", node()]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_planted_bug_is_found(bug, tmp_path):
    engine = load_engine(node(bug))
    result = run(engine, max_examples=150, seed=1, replay_dir=tmp_path, database=None)
    assert result.violation is not None, f"{bug} not found"
    rules = {rule for v in result.violations for rule in invariants.REGISTRY[v.invariant].rules}
    assert BUGS[bug] in rules, (bug, [v.invariant for v in result.violations])
    assert result.replay_path is not None and result.replay_path.exists()
    engine.close()


def test_an_unknown_bug_flag_is_refused_at_load(capsys):
    assert main(["run", "--engine", f"{node()} --bug no_such_bug", "--database", "none"]) == 2
    err = capsys.readouterr().err
    assert "usage: engine.js" in err and "deathtouch_ignored" in err


# --------------------------------------------------------------------------- same rules as tiny
CARD_NAMES = ["Grizzly Bears", "Typhoid Rats", "Darksteel Myr"]
IDS = ["a", "b", "c"]


@st.composite
def scenarios(draw):
    creatures = draw(st.lists(st.sampled_from(CARD_NAMES), min_size=1, max_size=3))
    objects = [{"id": IDS[i], "card": card, "owner": draw(st.sampled_from(["P1", "P2"])),
                "zone": "battlefield", "damage": draw(st.integers(0, 1)), "tapped": draw(st.booleans())}
               for i, card in enumerate(creatures)]
    for o in objects:
        o["controller"] = o["owner"]
    life = draw(st.integers(1, 4))
    target = st.sampled_from(IDS + ["P1", "P2", "nobody"])
    event = st.one_of(
        st.builds(lambda s, t, n: {"type": "damage", "source": s, "target": t, "amount": n},
                  st.sampled_from(IDS), target, st.integers(0, 3)),
        st.builds(lambda ts: {"type": "destroy", "targets": ts, "cant_be_regenerated": False},
                  st.lists(st.sampled_from(IDS), min_size=0, max_size=2)),
        st.builds(lambda o: {"type": "sacrifice", "object": o}, target),
        st.builds(lambda c, t, p: {"type": "cast", "card": c, "controller": p, "targets": [t]},
                  st.sampled_from(["Murder", "Shock", "Grizzly Bears", "Lightning Bolt"]), target,
                  st.sampled_from(["P1", "P2"])),
        st.just({"type": "cleanup"}),
    )
    board = {"players": [{"id": "P1", "life": life}, {"id": "P2", "life": 20}], "objects": objects}
    return board, draw(st.lists(event, max_size=6))


def _play(engine, board, events):
    game = engine.new_game(board)
    seen = [game.observe()]
    for event in events:
        try:
            game.apply(event, ReplayDecider([], strict=True))
            seen.append(game.observe())
        except IllegalAction as exc:
            seen.append(("illegal", exc.reason, game.observe()))
        except Unsupported as exc:
            seen.append(("unsupported", exc.reason))
            break
    return seen


@pytest.fixture(scope="module")
def engines():
    if shutil.which("node") is None:
        pytest.fail("node is not installed; .ci/run installs it")
    pair = {}
    for bugs in ((), ("deathtouch_ignored", "damage_kept_off_battlefield", "damage_to_wrong_player")):
        python = load_engine(TINY.replace(":engine", ":buggy") if bugs else TINY)
        pair[bugs] = (python, load_engine(node(*bugs)))
    yield pair
    for _, js in pair.values():
        js.close()


@pytest.mark.parametrize("buggy", [False, True])
def test_the_node_engine_plays_the_same_rules_as_the_python_tiny_engine(engines, buggy):
    """Random boards of tiny's cards and random events, legal or not: the same observations and refusals."""
    python, js = list(engines.values())[buggy]

    @settings(max_examples=60)
    @given(scenarios())
    def same(scenario):
        board, events = scenario
        assert _play(js, board, events) == _play(python, board, events)

    same()
