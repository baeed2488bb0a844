"""What a user touches: the ``rulesfuzz`` command line and its settings.

Lives here: the command line (:mod:`harness.interfaces.cli`) and its console script
(:mod:`harness.interfaces.console`), ``[tool.rulesfuzz]`` settings (:mod:`harness.interfaces.config`),
the options of ``rulesfuzz run`` for CI and scale (:mod:`harness.interfaces.run_options`), what
the supervisor reports when a run ended early (:mod:`harness.interfaces.supervised_end`) and the
generated contract reference, ``docs/reference.md`` (:mod:`harness.interfaces.contract`,
``python3 -m harness.interfaces.contract --write``). The pytest plugin stays at
:mod:`harness.pytest_plugin` (its entry point) and ``python -m harness`` at ``harness/__main__.py``;
both belong to this room.

May import: every other room of the harness, ``cards``, ``invariants`` and ``reference_engine``;
nothing of the product imports this room (``tests/test_import_graph.py`` checks the directions).
"""
