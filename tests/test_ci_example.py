"""examples/ci/github-actions.yml: it parses, its shard matrix covers every shard once with a Redis
service, and every rulesfuzz command in it is valid for this rulesfuzz (options, profile, shard)."""

from __future__ import annotations

import shlex

import pytest

from harness.interfaces.cli import build_parser
from harness.interfaces.config import BUILTIN_PROFILES
from harness.running.workers import parse_shard, parse_workers

from .conftest import ROOT

yaml = pytest.importorskip("yaml", reason="PyYAML is in the test extra: pip install -e '.[test]'")

WORKFLOW = ROOT / "examples/ci/github-actions.yml"


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def commands(data: dict):
    """(job name, argv) of every rulesfuzz command, once per shard of the job's matrix, with the
    workflow's env and matrix expressions filled in as GitHub Actions would."""
    env = data["env"]
    values = {"$RULESFUZZ_ENGINE": env["RULESFUZZ_ENGINE"], "$RULESFUZZ_DATABASE": "redis://localhost:6379/0"}
    for name, job in data["jobs"].items():
        for shard in job.get("strategy", {}).get("matrix", {}).get("shard", [None]):
            for step in job["steps"]:
                text = step.get("run", "").strip()
                if not text.startswith("rulesfuzz "):
                    continue
                text = text.replace("${{ matrix.shard }}", str(shard))
                assert "${{" not in text, text
                argv = [values.get(word, word) for word in shlex.split(text)]
                yield name, argv


def test_the_workflow_parses_with_a_shard_matrix_and_a_redis_service():
    data = workflow()
    gate = data["jobs"]["gate"]
    shards = gate["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1))
    assert gate["services"]["redis"]["image"].startswith("redis")
    assert "6379:6379" in gate["services"]["redis"]["ports"]
    assert data["env"]["RULESFUZZ_DATABASE"].endswith("'redis://localhost:6379/0' }}")
    engine_file = data["env"]["RULESFUZZ_ENGINE"].rsplit(":", 1)[0]
    assert (ROOT / engine_file).is_file()


def test_every_rulesfuzz_command_is_valid():
    found = {"run": 0, "replay": 0}
    parser = build_parser()
    data = workflow()
    for job, argv in commands(data):
        assert argv[0] == "rulesfuzz"
        try:
            args = parser.parse_args(argv[1:])
        except SystemExit:  # argparse printed why
            pytest.fail(f"{job}: not a valid rulesfuzz command: {shlex.join(argv)}")
        found[args.command] = found.get(args.command, 0) + 1
        if args.command != "run":
            continue
        assert args.profile in BUILTIN_PROFILES, args.profile
        parse_workers(args.workers)
        if args.shard:
            k, n = parse_shard(args.shard)
            assert n == len(data["jobs"][job]["strategy"]["matrix"]["shard"])
        assert args.database.startswith("redis://") and args.baseline and args.junit_path
    gate_shards = len(data["jobs"]["gate"]["strategy"]["matrix"]["shard"])
    assert found["run"] == gate_shards + 1 and found["replay"] == gate_shards  # + the explore job
