"""Loading an engine from a command-line spec.

``reference`` is the reference engine; ``package.module:attribute`` imports a module;
``path/to/file.py:attribute`` loads a file. The attribute is an engine (protocol
``harness.protocol.Engine``) or a callable with no arguments that returns one.
``exec:COMMAND ARGS...`` starts an engine in any language as a child process speaking
the wire protocol (docs/protocol.md, :mod:`harness.connection.rpc`); ``isolate=True`` runs an
in-process spec the same way, through ``python -m harness.serve SPEC``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cards
from harness.protocol import RulesfuzzError


class EngineLoadError(RulesfuzzError):
    """The engine spec can't be resolved to an engine; the message says why.

    ``engine_fault`` is True when a child-process engine started but broke the protocol
    before or in its answer to ``initialize`` (the engine's fault, not the user's spec).
    """

    engine_fault = False


def load_engine(spec: str, *, step_timeout: float | None = 10.0, isolate: bool = False):
    """Resolve ``spec`` to an engine object. Raises :class:`EngineLoadError`, also when importing
    the engine's module or calling its factory raises ``SystemExit`` (``sys.exit()`` in a script).

    ``step_timeout`` (seconds) bounds each message of a child-process engine
    (``exec:`` or ``isolate``); ``isolate`` serves an in-process spec from a child.
    """
    if spec.startswith("exec:") or isolate:
        return _process_engine(spec, step_timeout)
    if spec == "reference":
        from harness.adapters.reference import ReferenceAdapter

        return ReferenceAdapter()
    target, sep, attribute = spec.rpartition(":")
    if not sep or not target or not attribute:
        raise EngineLoadError(f"engine {spec!r}: expected 'reference', 'package.module:attribute' or "
                              f"'path/to/file.py:attribute'")
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target)
        if not path.is_file():
            raise EngineLoadError(f"engine {spec!r}: no file {path}")
        name = f"rulesfuzz_engine_{abs(hash(str(path.resolve())))}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:  # not a suffix Python imports (.py, .pyc ...)
            raise EngineLoadError(f"engine {spec!r}: {path} is not a Python file")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # noqa: BLE001  report any import-time failure, sys.exit() too
            sys.modules.pop(name, None)
            raise EngineLoadError(f"engine {spec!r}: importing {path} failed: {type(exc).__name__}: {exc}") from None
    else:
        try:
            module = importlib.import_module(target)
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            raise EngineLoadError(f"engine {spec!r}: can't import {target}: {type(exc).__name__}: {exc}") from None
    try:
        engine = getattr(module, attribute)
    except AttributeError:
        raise EngineLoadError(f"engine {spec!r}: {target} has no attribute {attribute!r}") from None
    if not hasattr(engine, "new_game") and callable(engine):
        try:
            engine = engine()
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            raise EngineLoadError(f"engine {spec!r}: calling {attribute}() failed: {type(exc).__name__}: {exc}") from None
    check_engine(engine, spec)
    return engine


def check_engine(engine, spec: str = "engine") -> None:
    """Raise :class:`EngineLoadError` unless ``engine`` has the protocol's shape."""
    info = getattr(engine, "info", None)
    missing = [n for n in ("name", "version", "capabilities") if not hasattr(info, n)]
    if info is None or missing:
        raise EngineLoadError(f"engine {spec!r}: no 'info' with name, version and capabilities "
                              f"(missing {missing or ['info']}); see harness.protocol.EngineInfo")
    if not callable(getattr(engine, "new_game", None)):
        raise EngineLoadError(f"engine {spec!r}: no new_game(board) method")
    problem = declaration_problem(info)
    if problem:
        raise EngineLoadError(f"engine {spec!r}: {problem}")
    from invariants.differential import check_ignored_path

    for path in getattr(info, "ignored_fields", ()) or ():
        try:
            check_ignored_path(path)
        except ValueError as exc:
            raise EngineLoadError(f"engine {spec!r}: {exc}") from None


def declaration_problem(info) -> str | None:
    """One line naming the first field of ``info`` (an ``EngineInfo``) that names an unknown
    capability or card, with the accepted values; None when every name is known."""
    return _capabilities_problem(info) or _counter_kinds_problem(info) or _cards_problem(info)


def _capabilities_problem(info) -> str | None:
    """declaration_problem of ``info.capabilities``."""
    from harness.protocol import CAPABILITIES

    caps = getattr(info, "capabilities", None)
    if isinstance(caps, str) or not isinstance(caps, (set, frozenset, list, tuple)):
        return f"info.capabilities: expected a set of capability names, got {type(caps).__name__}"
    unknown = sorted(str(c) for c in caps if c not in CAPABILITIES)
    if unknown:
        return (f"info.capabilities: unknown capability {', '.join(map(repr, unknown))}; accepted: "
                f"{', '.join(sorted(CAPABILITIES))}")
    return None


def _counter_kinds_problem(info) -> str | None:
    """declaration_problem of ``info.counter_kinds`` (None: every kind)."""
    kinds = getattr(info, "counter_kinds", None)
    if kinds is not None:
        if isinstance(kinds, str) or not isinstance(kinds, (set, frozenset, list, tuple)):
            return f"info.counter_kinds: expected a set of counter kinds such as '+1/+1', got {type(kinds).__name__}"
        bad = sorted(str(k) for k in kinds if not isinstance(k, str) or not re.fullmatch(r"[+-]\d+/[+-]\d+", k))
        if bad:
            return f"info.counter_kinds: {', '.join(map(repr, bad))} is not a power/toughness counter kind like '+1/+1'"
    return None


def _cards_problem(info) -> str | None:
    """declaration_problem of ``info.card_definitions`` (registered here) and ``info.cards``."""
    import cards as card_data

    definitions = getattr(info, "card_definitions", ()) or ()
    if isinstance(definitions, (str, dict)) or not isinstance(definitions, (list, tuple)):
        return f"info.card_definitions: expected a list of card definitions, got {type(definitions).__name__}"
    from cards.definitions import DefinitionError, define

    try:
        defined = define(definitions)  # registered for cards.card() for the rest of the run
    except DefinitionError as exc:
        return f"info.card_definitions: {exc}"
    declared = getattr(info, "cards", None)
    if declared is None:
        return None
    if isinstance(declared, str) or not isinstance(declared, (set, frozenset, list, tuple)):
        return f"info.cards: expected a set of Oracle card names or None, got {type(declared).__name__}"
    unknown = sorted(str(c) for c in declared if not isinstance(c, str) or
                     (c not in defined and card_data.lookup(c) is None))
    if unknown:
        first = unknown[0]
        near = card_data.closest(first)
        more = f" (and {len(unknown) - 1} more: {', '.join(map(repr, unknown[1:4]))})" if len(unknown) > 1 else ""
        return (f"info.cards: unknown card {first!r}{more}; closest: {', '.join(near) or 'none'} "
                f"(any Oracle name of the card database, or a card of info.card_definitions)")
    return None


def _process_engine(spec: str, step_timeout: float | None):
    """An engine in a child process: ``exec:COMMAND ARGS...``, or an in-process spec served by harness.serve."""
    from harness.connection.rpc import EngineProcessError, EngineStartError, EngineTimeout, ProcessEngine, parse_exec

    if spec.startswith("exec:"):
        try:
            argv = parse_exec(spec)
        except ValueError as exc:
            raise EngineLoadError(f"engine {spec!r}: {exc}") from None
        env = None
    else:
        # The child imports the same harness as this process, from wherever it runs.
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
        if cards.overlay_files():  # the --oracle files: the served engine may read their cards
            env[cards.ORACLE_ENV] = os.pathsep.join(cards.overlay_files())
        argv = [sys.executable, "-m", "harness.serve", spec]
    try:
        engine = ProcessEngine(argv, step_timeout=step_timeout, env=env)
    except (EngineProcessError, EngineTimeout) as exc:
        error = EngineLoadError(f"engine {spec!r}: {exc}")
        error.engine_fault = not isinstance(exc, EngineStartError)
        raise error from None
    check_engine(engine, spec)
    return engine


@contextmanager
def closing_process_engines(loaded: list | None = None) -> Iterator[list]:
    """A list (``loaded``, or a new one) whose engines' processes are shut down
    (:func:`close_process_engine`) when the block ends, however it ends: a command appends each
    engine it loads (``rulesfuzz run``, ``replay``, ``check``), and none is left to the garbage collector."""
    loaded = [] if loaded is None else loaded
    try:
        yield loaded
    finally:
        for engine in loaded:
            close_process_engine(engine)


def close_process_engine(engine) -> None:
    """Shut down ``engine``'s process if :func:`load_engine` started one (an ``exec:`` engine or
    ``isolate``: a :class:`harness.connection.rpc.ProcessEngine`); an in-process engine is left as it is."""
    from harness.connection.rpc import ProcessEngine

    if isinstance(engine, ProcessEngine):
        engine.close()
