"""pytest plugin: ``pytest --rulesfuzz-engine=SPEC`` fuzzes an engine as one test.

Registered through the ``pytest11`` entry point. Options: ``--rulesfuzz-engine``
(as ``rulesfuzz run --engine``), ``--rulesfuzz-examples`` and ``--rulesfuzz-seed``.
The test ``rulesfuzz_engine`` fails with the violation, the shrunk scenario and the
replay file path, like ``rulesfuzz run``.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("rulesfuzz")
    group.addoption("--rulesfuzz-engine", default=None, help="engine to fuzz, as for `rulesfuzz run --engine`")
    group.addoption("--rulesfuzz-examples", type=int, default=200, help="examples to generate (default 200)")
    group.addoption("--rulesfuzz-seed", type=int, default=0, help="seed (default 0)")
    group.addoption("--rulesfuzz-replay-dir", default="rulesfuzz-replays", help="where replay files go")


class RulesfuzzItem(pytest.Item):
    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec

    def runtest(self):
        from harness import report
        from harness.loading import load_engine
        from harness.runner import run

        config = self.config
        engine = load_engine(self.spec)
        result = run(engine, max_examples=config.getoption("rulesfuzz_examples"),
                     seed=config.getoption("rulesfuzz_seed"), replay_dir=config.getoption("rulesfuzz_replay_dir"))
        if result.violation is not None:
            text = report.describe_violation(result.violation)
            if result.scenario:
                text += "\n\n" + report.describe_scenario(result.scenario)
            if result.replay_path:
                text += f"\n\nReplay file: {result.replay_path}"
            raise RulesfuzzFailure(text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulesfuzzFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulesfuzz[{self.spec}]"


class RulesfuzzFailure(Exception):
    """A violation found by the plugin's test item."""


class RulesfuzzCollector(pytest.Collector):
    def __init__(self, *, spec, **kwargs):
        super().__init__(**kwargs)
        self.spec = spec

    def collect(self):
        yield RulesfuzzItem.from_parent(self, name=f"rulesfuzz_engine[{self.spec}]", spec=self.spec)


def pytest_collection_modifyitems(session, config, items):
    spec = config.getoption("rulesfuzz_engine")
    if spec:
        collector = RulesfuzzCollector.from_parent(session, name="rulesfuzz", spec=spec)
        items.extend(collector.collect())
