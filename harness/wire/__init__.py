"""The contract as data: what may be said to and by an engine.

Lives here: the published JSON Schemas (``harness/schema/*.schema.json``) and validation against
them (:mod:`harness.wire.schemas`), the scenario vocabulary, which events and boards a scenario may
say (:mod:`harness.wire.vocabulary`), and the log vocabulary, every kind of entry an observation's
``log`` may hold (:mod:`harness.wire.log_kinds`); :func:`harness.wire.plain.plain`, where a value
typed by :mod:`harness.protocol`'s TypedDicts is handed to code reading plain dicts (the invariants).

May import: ``cards``, ``harness`` (the package), ``harness.protocol``, ``harness.decisions``. The
invariants read the log vocabulary, so nothing here may import ``invariants``, the reference
engine or another room of the harness (``tests/test_import_graph.py`` checks the directions).
"""
