"""Reaching an engine: in this process, in a child process over JSON-RPC, or served.

Lives here: loading an engine from a command-line spec (:mod:`harness.connection.loading`), the
client side of the wire protocol (:mod:`harness.connection.rpc`) and the engine's own code
coverage (:mod:`harness.connection.engine_coverage`). The server side stays at
:mod:`harness.serve` (``python -m harness.serve``) and the in-process adapter of the reference
engine at :mod:`harness.adapters`; both belong to this room.

May import: ``cards``, ``invariants``, ``reference_engine``, ``harness`` (the package),
``harness.protocol``, ``harness.decisions``, ``harness.wire``, ``harness.reporting``,
``harness.adapters`` (``tests/test_import_graph.py`` checks the directions).
"""
