"""The client side of the wire protocol: an engine in a child process, seen as an ordinary engine.

``--engine "exec:COMMAND ARGS..."`` starts ``COMMAND`` as a child process and speaks
JSON-RPC 2.0 with it, one message per line on its stdin/stdout; its stderr is its log
(docs/protocol.md). :class:`ProcessEngine` presents the in-process protocol of
:mod:`harness.protocol` (``info``, ``new_game``; games with ``apply`` and ``observe``), so
the rest of the harness does not know the engine is elsewhere.

Isolation: every message the harness waits for has a deadline (``step_timeout`` seconds);
a child that exits, hangs, writes something that is not JSON-RPC, or a message the
protocol does not allow at that point raises :class:`EngineProcessError` (or
:class:`EngineTimeout`) carrying the last lines of its stderr, and the
child is stopped. The next ``new_game`` starts a fresh child. The child runs in its own
session, so a Ctrl-C at the terminal reaches only the harness, which stops the child.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import select
import shlex
import signal
import subprocess
import threading
import time
import weakref
from typing import Any, TypeGuard
from collections.abc import Sequence

from harness.reporting import findings
from harness.protocol import (
    ERROR_CODES,
    PROTOCOL_VERSION,
    BoardSpec,
    EngineInfo,
    Event,
    IllegalAction,
    Observation,
    Unsupported,
)
from harness.protocol import RulesfuzzError

#: Lines of the child's stderr kept for reports.
STDERR_LINES = 20
#: Seconds a starting child has to answer ``initialize`` (at least the step timeout):
#: starting a runtime (a JVM, node) takes longer than a step.
START_TIMEOUT = 60.0
_CODES = {code: name for name, code in ERROR_CODES.items()}


class EngineTimeout(RulesfuzzError):
    """The engine did not return from one call within the step timeout (in this process, the
    step alarm of :mod:`harness.running.execution`; in a child, no answer in time)."""


class EngineProcessError(RulesfuzzError):
    """The child engine process broke the protocol: it exited, wrote non-JSON, or an unexpected message.

    ``stderr`` holds its last :data:`STDERR_LINES` lines of stderr (also in the message).
    """

    def __init__(self, message: str, stderr: Sequence[str] = ()):
        self.stderr = list(stderr)
        tail = "".join(f"\n    | {line}" for line in self.stderr)
        super().__init__(message + (f"\n  last lines of the engine's stderr:{tail}" if tail else ""))

    def crash_site(self) -> str:
        """The fault's part of a finding key (:func:`harness.reporting.findings.crash_site`): ``exit N``,
        ``not_json``, ``not_jsonrpc`` or ``protocol_error``."""
        return findings.process_fault(self)


class EngineStartError(EngineProcessError):
    """The engine's command could not be started at all (no such file, not executable)."""


class EngineError(RulesfuzzError):
    """The engine answered a request with an error other than illegal action, unsupported or bad board.

    ``code`` is the JSON-RPC error code (``internal_error`` -32603 for an engine's own
    exception), ``data`` the error's data.
    """

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{_CODES.get(code, code)}: {message}")
        self.code = code
        self.data = data

    def crash_site(self) -> str:
        """The error's part of a finding key (:func:`harness.reporting.findings.crash_site`): an
        ``internal_error`` whose ``data`` names the exception's ``type`` (and ``traceback``) as an
        in-process crash of that type at the innermost engine frame, else the error's name."""
        names = {code: name for name, code in ERROR_CODES.items()}
        data = self.data if isinstance(self.data, dict) else {}
        kind = data.get("type")
        if self.code == ERROR_CODES["internal_error"] and isinstance(kind, str) and re.fullmatch(r"[\w.]+", kind):
            trace = data.get("traceback")
            return findings.site_of(kind, findings.innermost(findings.text_frames(trace)) if isinstance(trace, str)
                                    else None)
        return names.get(self.code, f"error {self.code}")


class BadBoard(RulesfuzzError):
    """The engine refused to build a game from the board (error ``bad_board``); the message says why."""


def _list_of(value: Any, kind: type) -> TypeGuard[list[Any]]:
    """Whether ``value`` is a list of ``kind`` instances (JSON: an array of strings, of objects)."""
    return isinstance(value, list) and all(isinstance(x, kind) for x in value)


def _info_from_json(result: Any) -> EngineInfo:
    """An :class:`EngineInfo` from an ``initialize`` result; raises ValueError naming the bad field."""
    if not isinstance(result, dict):
        raise ValueError(f"initialize answered {type(result).__name__}, expected an object")
    for key in ("name", "version"):
        if not isinstance(result.get(key), str) or not result[key]:
            raise ValueError(f"initialize result: {key!r} must be a non-empty string")
    caps = result.get("capabilities")
    if not _list_of(caps, str):
        raise ValueError("initialize result: 'capabilities' must be a list of strings")
    cards = result.get("cards")
    if cards is not None and not _list_of(cards, str):
        raise ValueError("initialize result: 'cards' must be null or a list of Oracle names")
    ignored = result.get("ignored_fields", [])
    if not _list_of(ignored, str):
        raise ValueError("initialize result: 'ignored_fields' must be a list of strings")
    definitions = result.get("card_definitions", [])
    if not _list_of(definitions, dict):
        raise ValueError("initialize result: 'card_definitions' must be a list of card definition objects")
    kinds = result.get("counter_kinds")
    if kinds is not None and not _list_of(kinds, str):
        raise ValueError("initialize result: 'counter_kinds' must be null or a list of counter kinds")
    if result.get("protocol") != PROTOCOL_VERSION:
        raise ValueError(f"initialize result: 'protocol' is {result.get('protocol')!r}; this harness speaks "
                         f"version {PROTOCOL_VERSION}")
    return EngineInfo(name=result["name"], version=result["version"], capabilities=frozenset(caps),
                      ignored_fields=frozenset(ignored), cards=None if cards is None else frozenset(cards),
                      card_definitions=tuple(definitions), counter_kinds=None if kinds is None else frozenset(kinds))


class _Child:
    """One running child process: framing, deadlines and the stderr tail."""

    def __init__(self, argv: list[str], timeout: float | None, env: dict | None = None, trace: list | None = None):
        self.argv = argv
        self.timeout = timeout
        self.trace = trace
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                start_new_session=True,  # its own session and process group: the terminal's Ctrl-C is ours
                bufsize=0,
            )
        except OSError as exc:
            raise EngineStartError(f"can't start {shlex.join(argv)}: {exc}") from None
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        stderr = self.proc.stderr
        assert stderr is not None  # Popen(stderr=PIPE)
        self._stderr_fd = stderr.fileno()
        os.set_blocking(self._stderr_fd, False)  # both readers take only what is there
        self._stderr_lock = threading.Lock()
        self._stderr_partial = b""
        self._stderr_closed = False
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self._buffer = b""
        self._next_id = 0
        self.dead = False

    def _drain_stderr(self) -> None:
        """The reader thread: keeps the pipe from filling up while nobody asks for the tail."""
        while not self._stderr_closed:
            try:
                select.select([self._stderr_fd], [], [])
            except (OSError, ValueError):  # the pipe was closed under us
                return
            with self._stderr_lock:
                self._read_stderr()

    def _read_stderr(self) -> None:
        """Move everything the pipe holds now into :attr:`stderr` (the caller holds the lock)."""
        while not self._stderr_closed:
            try:
                data = os.read(self._stderr_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:  # end of file: the last line may have no newline
                self._stderr_closed = True
                data, self._stderr_partial = self._stderr_partial + b"\n", b""
                if data == b"\n":
                    return
            *lines, self._stderr_partial = (self._stderr_partial + data).split(b"\n")
            self.stderr.extend(raw.decode("utf-8", "replace") for raw in lines)

    def tail(self) -> list[str]:
        """The last lines of stderr, everything the child wrote before this call included: the
        pipe is drained here rather than left to the reader thread, whose lag made a tail taken
        just after a response miss the lines the engine flushed before it."""
        with self._stderr_lock:
            self._read_stderr()
            partial = self._stderr_partial.decode("utf-8", "replace")
        return list(self.stderr) + ([partial] if partial else [])

    def fail(self, message: str) -> EngineProcessError:
        """Stop the child and return the error to raise."""
        self.stop()
        return EngineProcessError(message, self.tail())

    def stop(self) -> None:
        """Kill the child's whole process group (it may have started children of its own, which
        outlive it when it crashed or exited after ``shutdown``: they are killed too)."""
        if self.dead:
            return
        self.dead = True
        try:
            os.killpg(self.proc.pid, 9)  # the group keeps the child's pid as its id while a member lives
        except (ProcessLookupError, PermissionError):
            if self.proc.poll() is None:
                self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:  # Popen(stdin=PIPE, stdout=PIPE): never None
                    stream.close()
            except OSError:
                pass

    def send(self, message: dict) -> None:
        if self.trace is not None:
            self.trace.append(("to engine", message))
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        stdin = self.proc.stdin
        assert stdin is not None  # Popen(stdin=PIPE)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(stdin.fileno(), view):]
        except (BrokenPipeError, OSError, ValueError) as error:
            code = self.proc.poll()
            raise self.fail(f"engine process exited (code {code}) before reading {message.get('method', 'a reply')!r}") from error

    def request(self, method: str, params: dict) -> int:
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id

    def receive(self, waiting_for: str) -> dict:
        """The next message (a dict); raises on end of file, a deadline passed, or a line that is not JSON-RPC."""
        deadline = None if not self.timeout else time.monotonic() + self.timeout
        stdout = self.proc.stdout
        assert stdout is not None  # Popen(stdout=PIPE)
        fd = stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                self.stop()
                tail = "".join(f"\n    | {line}" for line in self.tail())
                raise EngineTimeout(f"engine did not answer {waiting_for} within {self.timeout:g} s"
                                    + (f"\n  last lines of the engine's stderr:{tail}" if tail else ""))
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                try:
                    code = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    code = None
                raise self.fail(f"engine process closed its stdout (exit code {code}) while the harness waited "
                                f"for {waiting_for}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            text = line.decode("utf-8", "replace")
            raise self.fail(f"engine wrote a line that is not JSON while the harness waited for {waiting_for}: "
                            f"{text[:200]!r}") from None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            raise self.fail(f"engine wrote a message that is not JSON-RPC 2.0 while the harness waited for "
                            f"{waiting_for}: {line[:200].decode('utf-8', 'replace')!r}")
        if self.trace is not None:
            self.trace.append(("from engine", message))
        return message


@contextlib.contextmanager
def _alarm_paused():
    """Pause the harness's step alarm (``ITIMER_REAL``) while a child starts: its start is not the engine's step."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    remaining, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        yield
    finally:
        if remaining > 0:
            signal.setitimer(signal.ITIMER_REAL, remaining)


class ProcessEngine:
    """An engine in a child process (protocol :class:`harness.protocol.Engine`).

    ``argv`` is the command and its arguments; ``step_timeout`` (seconds, None: no limit)
    bounds the wait for each message from the child. Starting it sends ``initialize``
    and reads ``info``; raises :class:`EngineProcessError` (or ``EngineTimeout``) if the
    child can't be started or doesn't answer a valid ``EngineInfo`` (ValueError).
    ``close()`` sends ``shutdown`` and stops the child; it is also called at exit.
    """

    def __init__(self, argv: Sequence[str], step_timeout: float | None = 10.0, env: dict | None = None,
                 trace: list | None = None):
        if not argv:
            raise ValueError("exec: needs a command")
        self.argv = list(argv)
        self.step_timeout = step_timeout
        self.env = env
        self.trace = trace
        self._child: _Child | None = None
        self._to_dispose: list[tuple[_Child, Any]] = []
        self.restarts = 0
        self.info: EngineInfo = self._start()
        weakref.finalize(self, ProcessEngine._close_child, self.__dict__)

    # ------------------------------------------------------------------ process
    def _start(self) -> EngineInfo:
        child = _Child(self.argv, max(self.step_timeout or 0, START_TIMEOUT), self.env, self.trace)
        try:
            result = self._call(child, "initialize", {"protocol": PROTOCOL_VERSION,
                                                      "harness": {"name": "rulesfuzz"}})
            info = _info_from_json(result)
            child.timeout = self.step_timeout
            #: The raw answer to ``initialize`` (``rulesfuzz check`` validates it against its schema).
            self.initialize_result = result
        except ValueError as exc:
            raise child.fail(f"{shlex.join(self.argv)}: {exc}") from None
        except BaseException:
            child.stop()
            raise
        previous = getattr(self, "info", None)
        if previous is not None and previous != info:
            raise child.fail(f"the restarted engine describes itself differently: {info} instead of {previous}")
        self._child = child
        return info

    def _live_child(self) -> _Child:
        if self._child is None or self._child.dead:
            self.restarts += self._child is not None
            self._child = None
            with _alarm_paused():
                self._start()
        assert self._child is not None  # _start() set it or raised
        return self._child

    @staticmethod
    def _close_child(state: dict) -> None:
        child = state.get("_child")
        if child is None or child.dead:
            return
        try:
            child.timeout = min(child.timeout or 2.0, 2.0)
            child.request("shutdown", {})
            child.receive("shutdown")
            child.proc.wait(timeout=2)
        except BaseException:  # noqa: BLE001  closing must not fail
            pass
        child.stop()

    def close(self) -> None:
        """Send ``shutdown`` and stop the child (a later ``new_game`` starts a new one)."""
        ProcessEngine._close_child(self.__dict__)
        self._child = None

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines the current child wrote to stderr."""
        return self._child.tail() if self._child is not None else []

    # ------------------------------------------------------------------ messages
    def _call(self, child: _Child, method: str, params: dict, decider=None) -> Any:
        """Send one request and wait for its response, answering callbacks from ``decider``.

        Any failure in between (timeout, bad message, an exception of the decider, a
        KeyboardInterrupt) stops the child: a half-finished exchange can't be resumed.
        """
        if child.dead:
            raise EngineProcessError("the engine process that held this game has been stopped")
        try:
            wanted = child.request(method, params)
            while True:
                message = child.receive(f"{method}")
                if "method" in message:
                    if decider is None or "id" not in message:
                        raise child.fail(f"engine sent an unexpected message during {method}: "
                                         f"{json.dumps(message)[:200]}")
                    self._answer(child, message, decider)
                    continue
                if message.get("id") != wanted:
                    raise child.fail(f"engine answered id {message.get('id')!r} while the harness waited for the "
                                     f"answer to {method} (id {wanted}): {json.dumps(message)[:200]}")
                if "error" in message:
                    raise self._error(child, method, message["error"])
                if "result" not in message:
                    raise child.fail(f"engine's answer to {method} has neither result nor error")
                return message["result"]
        except (IllegalAction, Unsupported, BadBoard, EngineError, EngineProcessError):
            raise
        except EngineTimeout as exc:  # ours, or the harness's own step alarm
            child.stop()
            if "stderr" in str(exc) or not child.tail():
                raise
            tail = "".join(f"\n    | {line}" for line in child.tail())
            raise EngineTimeout(f"{exc}\n  last lines of the engine's stderr:{tail}") from None
        except BaseException:
            child.stop()
            raise

    def _answer(self, child: _Child, message: dict, decider) -> None:
        """Answer one callback (choose, flip_coin, roll_die) from the decider."""
        method, params, cid = message["method"], message.get("params") or {}, message["id"]
        if not isinstance(params, dict):
            raise child.fail(f"engine called {method} with params that are not an object: {params!r}")
        try:
            if method == "choose":
                answer = decider.choose(params.get("player"), params.get("kind"), params.get("options") or [])
            elif method == "flip_coin":
                answer = decider.flip_coin(params.get("player"))
            elif method == "roll_die":
                answer = decider.roll_die(params.get("player"), params.get("sides"))
            else:
                raise child.fail(f"engine called an unknown harness method {method!r}")
        except EngineProcessError:
            raise
        except BaseException as exc:
            # The decider can't answer (a malformed question, a replay that diverged, or
            # Hypothesis ending the example): tell the engine, then stop it and re-raise.
            try:
                child.send({"jsonrpc": "2.0", "id": cid, "error": {
                    "code": ERROR_CODES["decision_refused"], "message": f"{type(exc).__name__}: {exc}"[:500]}})
            except EngineProcessError:
                pass
            raise
        child.send({"jsonrpc": "2.0", "id": cid, "result": answer})

    def _error(self, child: _Child, method: str, error: Any) -> Exception:
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            return child.fail(f"engine's error answer to {method} is malformed: {json.dumps(error)[:200]}")
        code, text, data = error["code"], str(error.get("message", "")), error.get("data")
        reason = data.get("reason") if isinstance(data, dict) else None
        if code == ERROR_CODES["illegal_action"] and method == "apply":
            exc = IllegalAction(reason or "illegal", text)
            exc.observation = data.get("observation") if isinstance(data, dict) else None
            return exc
        if code == ERROR_CODES["unsupported"] and method in ("apply", "new_game"):
            return Unsupported(reason or "unsupported", text)
        if code == ERROR_CODES["bad_board"] and method == "new_game":
            return BadBoard(text)
        return EngineError(code, text, data)

    def _dispose_pending(self, child: _Child) -> None:
        pending, self._to_dispose = self._to_dispose, []
        for owner, handle in pending:
            if owner is child and not child.dead:
                child.send({"jsonrpc": "2.0", "method": "dispose", "params": {"game": handle}})

    def _forget(self, child: _Child, handle: Any) -> None:
        self._to_dispose.append((child, handle))

    # ------------------------------------------------------------------ the Engine protocol
    def new_game(self, board: BoardSpec) -> ProcessGame:
        """Start a game in the child (a fresh child if the last one was stopped).

        Raises :class:`BadBoard` (error ``bad_board``), :class:`harness.protocol.Unsupported`,
        :class:`EngineError`, :class:`EngineProcessError` or ``EngineTimeout``.
        """
        child = self._live_child()
        self._dispose_pending(child)
        result = self._call(child, "new_game", {"board": board, "observe": True})
        if not isinstance(result, dict) or not isinstance(result.get("game"), (str, int)):
            raise child.fail(f"engine's answer to new_game has no game handle: {json.dumps(result)[:200]}")
        game = ProcessGame(self, child, result["game"], result.get("observation"))
        weakref.finalize(game, self._forget, child, result["game"])
        return game


class ProcessGame:
    """A game held by the child process; ``apply`` is one round trip (it returns the observation)."""

    __slots__ = ("_engine", "_child", "handle", "_observation", "__weakref__")

    def __init__(self, engine: ProcessEngine, child: _Child, handle: Any, observation: Observation | None):
        self._engine = engine
        self._child = child
        self.handle = handle
        self._observation = observation

    def apply(self, event: Event, decider) -> None:
        """Send ``apply`` with the event; callbacks go to ``decider``.

        Raises :class:`IllegalAction`, :class:`Unsupported`, :class:`EngineError`,
        :class:`EngineProcessError` (also for an answer that is not an object) or ``EngineTimeout``
        as described in docs/protocol.md.
        """
        self._observation = None
        try:
            result = self._engine._call(self._child, "apply", {"game": self.handle, "event": event, "observe": True},
                                        decider)
        except IllegalAction as exc:
            self._observation = getattr(exc, "observation", None)
            raise
        if not isinstance(result, dict):  # docs/protocol.md: {"observation": ...}, or {} without "observe"
            raise self._child.fail(f"engine's answer to apply is not an object: {json.dumps(result)[:200]}")
        if "observation" in result:
            self._observation = result["observation"]

    def observe(self) -> Observation:
        """The observation after the last event (cached from ``apply``'s answer, else one ``observe`` request)."""
        if self._observation is None:
            self._observation = self._engine._call(self._child, "observe", {"game": self.handle})
        return self._observation


def parse_exec(spec: str) -> list[str]:
    """The argv of an ``exec:COMMAND ARGS...`` spec (shell-like quoting). Raises ValueError when empty."""
    argv = shlex.split(spec[len("exec:"):])
    if not argv:
        raise ValueError("expected 'exec:COMMAND ARGS...', got no command")
    return argv
