"""Serve an in-process engine over the wire protocol: ``python -m harness.serve SPEC``.

``SPEC`` is any engine spec ``rulesfuzz run --engine`` accepts for an in-process engine
(``reference``, ``package.module:attribute``, ``path/to/file.py:attribute``). The server
reads JSON-RPC 2.0 requests from stdin, one per line, and answers on stdout
(docs/protocol.md); the engine's own prints go to stderr, so they can't corrupt the
protocol. ``rulesfuzz run --isolate`` runs engines through it, so an engine that crashes
the interpreter is a finding instead of the end of the run; serving the same engine
in-process and through this bridge must give the same findings.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, BinaryIO

from harness.connection.loading import EngineLoadError, load_engine
from .protocol import ERROR_CODES, PROTOCOL_VERSION, EngineInfo, IllegalAction, Unsupported
from harness.protocol import RulesfuzzError


def info_to_json(info: EngineInfo) -> dict:
    """The ``initialize`` result for ``info`` (the inverse of reading one)."""
    return {
        "protocol": PROTOCOL_VERSION, "name": info.name, "version": info.version,
        "capabilities": sorted(info.capabilities),
        "cards": None if (names := getattr(info, "cards", None)) is None else sorted(names),
        "ignored_fields": sorted(getattr(info, "ignored_fields", ()) or ()),
        **({"card_definitions": [dict(d) for d in info.card_definitions]}
           if getattr(info, "card_definitions", ()) else {}),
        **({"counter_kinds": sorted(kinds)} if (kinds := getattr(info, "counter_kinds", None)) is not None else {}),
    }


class DecisionRefused(RulesfuzzError):
    """The harness answered a callback with an error: the apply is abandoned."""


class _Stop(RulesfuzzError):
    """``shutdown`` was received, or stdin closed."""


class Server:
    """Answers protocol requests for ``engine``, reading ``inp`` and writing ``out`` (binary streams)."""

    def __init__(self, engine, inp: BinaryIO, out: BinaryIO):
        self.engine = engine
        self.inp = inp
        self.out = out
        self.games: dict[str, Any] = {}
        self._next_game = 0
        self._next_callback = 0

    # ------------------------------------------------------------------ framing
    def send(self, message: dict) -> None:
        self.out.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
        self.out.flush()

    def receive(self) -> Any:
        line = self.inp.readline()
        if not line:
            raise _Stop()
        return json.loads(line)

    def _error(self, mid, name: str, message: str, data: Any = None) -> None:
        error = {"code": ERROR_CODES[name], "message": message}
        if data is not None:
            error["data"] = data
        self.send({"jsonrpc": "2.0", "id": mid, "error": error})

    # ------------------------------------------------------------------ the decider, remotely
    def _callback(self, method: str, params: dict) -> Any:
        self._next_callback += 1
        cid = f"h{self._next_callback}"
        self.send({"jsonrpc": "2.0", "id": cid, "method": method, "params": params})
        answer = self.receive()
        if not isinstance(answer, dict) or answer.get("id") != cid:
            raise DecisionRefused(f"expected the answer to {method} {cid}, got {answer!r}"[:300])
        if "error" in answer:
            raise DecisionRefused(str(answer["error"].get("message", "")))
        return answer.get("result")

    def choose(self, player, kind, options):
        return self._callback("choose", {"player": player, "kind": kind, "options": list(options)})

    def flip_coin(self, player):
        return self._callback("flip_coin", {"player": player})

    def roll_die(self, player, sides):
        return self._callback("roll_die", {"player": player, "sides": sides})

    # ------------------------------------------------------------------ methods
    def _game(self, params: dict):
        handle = params.get("game")
        if not isinstance(handle, str) or handle not in self.games:  # games are named by strings
            raise _UnknownGame(handle)
        return self.games[handle]

    def handle(self, message: Any) -> None:
        """Answer one request (a notification gets no answer)."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not isinstance(
                message.get("method"), str):
            self._error(message.get("id") if isinstance(message, dict) else None, "invalid_request",
                        "expected a JSON-RPC 2.0 request")
            return
        mid, method, params = message.get("id"), message["method"], message.get("params") or {}
        notification = "id" not in message
        try:
            result = self._dispatch(method, params)
        except _Stop:
            raise
        except _UnknownGame as exc:
            if not notification:
                self._error(mid, "unknown_game", f"no game {exc.args[0]!r}")
            return
        except IllegalAction as exc:
            handle = params.get("game")
            game = self.games.get(handle) if isinstance(handle, str) else None
            data = {"reason": exc.reason}
            if params.get("observe") and game is not None:
                data["observation"] = game.observe()
            self._error(mid, "illegal_action", _detail(exc, exc.reason), data)
            return
        except Unsupported as exc:
            self._error(mid, "unsupported", _detail(exc, exc.reason), {"reason": exc.reason})
            return
        except _MethodNotFound:
            self._error(mid, "method_not_found", f"no method {method!r}")
            return
        except _BadBoard as exc:
            self._error(mid, "bad_board", str(exc))
            return
        except _Version as exc:
            self._error(mid, "protocol_version", str(exc), {"supported": [PROTOCOL_VERSION]})
            return
        except Exception as exc:  # noqa: BLE001  the engine's own error: an internal error
            self._error(mid, "internal_error", f"{type(exc).__name__}: {exc}",
                        {"type": type(exc).__name__, "traceback": traceback.format_exc(limit=-12)})
            return
        if not notification:
            self.send({"jsonrpc": "2.0", "id": mid, "result": result})
        if method == "shutdown":
            raise _Stop()

    def _dispatch(self, method: str, params: dict) -> Any:
        if method == "initialize":
            if params.get("protocol") != PROTOCOL_VERSION:
                raise _Version(f"this engine speaks protocol version {PROTOCOL_VERSION}, not {params.get('protocol')!r}")
            return info_to_json(self.engine.info)
        if method == "new_game":
            try:
                game = self.engine.new_game(params.get("board"))
                observation = game.observe() if params.get("observe") else None
            except Unsupported:
                raise
            except Exception as exc:  # noqa: BLE001
                raise _BadBoard(f"{type(exc).__name__}: {exc}") from None
            self._next_game += 1
            handle = f"g{self._next_game}"
            self.games[handle] = game
            return {"game": handle, **({"observation": observation} if params.get("observe") else {})}
        if method == "apply":
            game = self._game(params)
            game.apply(params.get("event"), self)
            return {"observation": game.observe()} if params.get("observe") else {}
        if method == "observe":
            return self._game(params).observe()
        if method == "dispose":
            if isinstance(disposed := params.get("game"), str):
                self.games.pop(disposed, None)
            return None
        if method == "shutdown":
            return None
        raise _MethodNotFound(method)

    def serve(self) -> None:
        """Answer requests until ``shutdown`` or the end of stdin."""
        while True:
            try:
                message = self.receive()
            except _Stop:
                return
            except ValueError as exc:
                self._error(None, "parse_error", f"not JSON: {exc}")
                continue
            try:
                self.handle(message)
            except _Stop:
                return


def _detail(exc: Exception, reason: str) -> str:
    """The message of an IllegalAction or Unsupported without its ``reason: `` prefix."""
    text = str(exc)
    return text[len(reason) + 2:] if text.startswith(f"{reason}: ") else ("" if text == reason else text)


class _UnknownGame(RulesfuzzError):
    """A request named a game handle this server doesn't have (error ``unknown_game``); an
    engine's own ``KeyError`` is an internal error like any other exception of its code."""


class _MethodNotFound(RulesfuzzError):
    pass


class _BadBoard(RulesfuzzError):
    pass


class _Version(RulesfuzzError):
    pass


def main(argv: list[str] | None = None) -> int:
    """Entry point: serve the engine named by ``argv[0]``; exit 2 if it can't be loaded."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m harness.serve ENGINE_SPEC", file=sys.stderr)
        return 2
    # Protocol messages go to the real stdout; anything else the engine prints goes to stderr.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        engine = load_engine(argv[0])
    except EngineLoadError as exc:
        print(f"harness.serve: {exc}", file=sys.stderr)
        return 2
    Server(engine, sys.stdin.buffer, out).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
