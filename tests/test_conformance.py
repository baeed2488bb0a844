"""``rulesfuzz check``: every check passes on correct engines (in-process and over the wire)
and fails, with its reason, on an engine that breaks exactly what it checks."""

from __future__ import annotations

import sys

import pytest

from harness.interfaces.cli import main
from harness.running.conformance import check
from harness.connection.loading import load_engine
from harness.protocol import EngineInfo, IllegalAction

from .conftest import ROOT

TINY = f"{ROOT / 'examples' / 'engines' / 'tiny' / 'engine.py'}:engine"
CHECKS = ["initialize", "cards", "board_round_trip", "illegal_changes_nothing", "determinism", "accepts_legal_events",
          "plain_json"]


def outcome(engine) -> dict[str, str]:
    return {r.name: ("PASS" if r.ok else "FAIL") + " " + r.why for r in check(engine)}


@pytest.mark.parametrize("spec", ["reference", TINY])
def test_correct_engines_pass_every_check(spec, capsys):
    assert main(["check", "--engine", spec]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == [f"PASS  {name}" for name in CHECKS]
    assert out.splitlines()[-1] == "7 of 7 checks passed"


def test_an_engine_over_the_wire_is_checked_the_same_way(capsys):
    assert main(["check", "--engine", TINY, "--isolate"]) == 0
    assert "7 of 7 checks passed" in capsys.readouterr().out


class Wrapped:
    """The tiny engine with one defect: ``info``, ``board`` (rewrite the board), ``game`` (wrap games)."""

    def __init__(self, info=None, board=None, game=None):
        self._engine = load_engine(TINY)
        self.info = info or self._engine.info
        self._board = board or (lambda b: b)
        self._game = game or (lambda g: g)

    def new_game(self, board):
        return self._game(self._engine.new_game(self._board(board)))


class GameWith:
    def __init__(self, game, apply=None, observe=None):
        self._g, self._apply, self._observe = game, apply, observe

    def apply(self, event, decider):
        return (self._apply or (lambda g, e, d: g.apply(e, d)))(self._g, event, decider)

    def observe(self):
        return (self._observe or (lambda g: g.observe()))(self._g)


def _swallow_illegal(game, event, decider):
    try:
        game.apply(event, decider)
    except IllegalAction:
        pass


_games = [0]


def _numbered(game):
    _games[0] += 1
    number = _games[0]
    return GameWith(game, observe=lambda g: {**g.observe(), "log": [{"kind": "life_gained", "player": "P1",
                                                                            "amount": number}]})


def _tuple_types(game):
    def observe(g):
        obs = g.observe()
        for o in obs["objects"].values():
            o["types"] = tuple(o["types"])
        return obs
    return GameWith(game, observe=observe)


def _info(**changes):
    base = load_engine(TINY).info
    return EngineInfo(**{**base.__dict__, **changes})


@pytest.mark.parametrize("engine,failed,says", [
    (lambda: Wrapped(info=_info(capabilities=frozenset({"destroy", "telepathy"}))), "initialize", "telepathy"),
    (lambda: Wrapped(info=_info(name="")), "initialize", "name"),
    (lambda: Wrapped(info=_info(cards=frozenset({"Grizzly Bears", "Grizzly Bear"}))), "cards", "Grizzly Bear'"),
    (lambda: Wrapped(board=lambda b: {**b, "players": [{**p, "life": 20} for p in b["players"]]}), "board_round_trip",
     "players.P1: expected life 17"),
    (lambda: Wrapped(info=_info(capabilities=_info().capabilities | {"tap_untap_costs"}),
                     board=lambda b: {**b, "objects": [{**o, "tapped": False} for o in b["objects"]]}),
     "board_round_trip", "tapped: expected True"),
    (lambda: Wrapped(game=lambda g: GameWith(g, apply=_swallow_illegal)), "illegal_changes_nothing",
     "not refused with IllegalAction"),
    (lambda: Wrapped(game=_numbered), "determinism", "differ in ['log']"),
    (lambda: Wrapped(game=_tuple_types), "plain_json", "JSON round trip"),
])
def test_each_check_fails_on_the_defect_it_checks(engine, failed, says):
    results = outcome(engine())
    assert results[failed].startswith("FAIL") and says in results[failed], results[failed]
    others = [name for name, text in results.items() if name != failed and text.startswith("FAIL")]
    assert not others or failed in ("initialize",), results


def test_exit_codes(tmp_path, capsys):
    assert main(["check", "--engine", "no/such/engine.py:engine"]) == 2
    assert main(["check", "--engine", "exec:/no/such/command"]) == 2
    assert "error" in capsys.readouterr().err
    # Started, but its answer to initialize isn't EngineInfo: the engine's fault, a failed check.
    assert main(["check", "--engine", f"exec:{sys.executable} -c \"print('{{}}')\""]) == 1
    assert capsys.readouterr().out.startswith("FAIL  initialize:")
    with pytest.raises(SystemExit) as usage:
        main(["check", "--engine", "reference", "--step-timeout", "0"])
    assert usage.value.code == 2
