"""Bugs the type checker found in harness/ (issue 24 item 3: mypy over cards, harness, invariants and
reference_engine reports no error), each checked here by what the code must do."""

from __future__ import annotations

import io
import json

import pytest

from harness.connection.loading import EngineLoadError, load_engine
from harness.protocol import ERROR_CODES
from harness.serve import Server


def test_an_engine_file_python_cant_import_is_refused_with_a_load_error(tmp_path):
    """``path/to/file:attribute`` names a file by its path; one whose suffix Python doesn't import
    (no ``.py``) has no module spec. It was an AttributeError of importlib (a crash of the CLI),
    not the one-line EngineLoadError every other bad spec gets."""
    script = tmp_path / "engine"
    script.write_text("class Engine:\n    pass\n")
    with pytest.raises(EngineLoadError, match="not a Python file"):
        load_engine(f"{script}:Engine")


class _Engine:
    """An engine whose games do nothing: the requests below are about naming them."""

    def new_game(self, board):
        return self

    def apply(self, event, decider):  # pragma: no cover - no request reaches a game
        raise AssertionError("no game is named")

    observe = apply


def _answers(requests: list[dict]) -> list[dict]:
    """The server's answers to ``new_game`` (one game, ``g1``) and then ``requests``."""
    out = io.BytesIO()
    server = Server(_Engine(), io.BytesIO(), out)
    for request in [{"jsonrpc": "2.0", "id": 0, "method": "new_game", "params": {"board": {}}}, *requests]:
        server.handle(request)
    answers = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    assert answers[0]["result"] == {"game": "g1"}, answers[0]
    return answers[1:]


@pytest.mark.parametrize("method", ["observe", "apply"])
@pytest.mark.parametrize("handle", [[1], {"g": 1}, None, 7])
def test_a_game_handle_that_is_not_a_game_is_an_unknown_game(method, handle):
    """harness.serve names its games by strings; a request naming a game by a list or an object
    (unhashable) was answered internal_error, the error of the engine's own code (a TypeError of the
    dict lookup), instead of unknown_game (docs/protocol.md)."""
    params = {"game": handle, "event": {"type": "pass"}}
    [answer] = _answers([{"jsonrpc": "2.0", "id": 1, "method": method, "params": params}])
    assert answer["error"]["code"] == ERROR_CODES["unknown_game"], answer


def test_disposing_of_a_game_handle_that_is_not_a_game_does_nothing():
    """``dispose`` of a game that isn't one is no error (it is gone already), whatever the handle."""
    [answer] = _answers([{"jsonrpc": "2.0", "id": 1, "method": "dispose", "params": {"game": [1]}}])
    assert "error" not in answer and answer["result"] is None, answer
