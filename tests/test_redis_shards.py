"""Shards sharing findings through a real Redis server (``--database redis://...``): a failure
saved by one shard is replayed first by another. Needs ``redis-server`` (the Debian package
redis-server; ``.ci/run`` installs it when missing)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time

import pytest

from harness.interfaces.cli import main

from .conftest import ROOT

TINY = str(ROOT / "examples/engines/tiny/engine.py")
BUGGY = f"{TINY}:buggy"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path):
    """A fresh redis-server on a free local port, without persistence; stopped after the test."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run installs it)")
    import redis

    port = free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                                "no", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not answer within 5 s")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def shard(tmp_path, k: int, database: str, name: str, mode: str = "--explore"):
    folder = tmp_path / name
    code = main(["run", "--engine", BUGGY, "--max-examples", "40", "--shard", f"{k}/2", "--database", database,
                 "--replay-dir", str(folder), "--json", str(tmp_path / f"{name}.json"), "--quiet", mode])
    return code, json.loads((tmp_path / f"{name}.json").read_text())


#: Each generator's finding replayed from the database: Hypothesis's as its first example (its
#: reuse phase), exploration's from its corpus before any example.
REPLAYED_AT = {"--hypothesis": 1, "--explore": 0}


@pytest.mark.parametrize("mode", sorted(REPLAYED_AT))
def test_a_finding_saved_by_one_shard_is_replayed_first_by_another(redis_url, tmp_path, capsys, mode):
    import redis

    code, first = shard(tmp_path, 1, redis_url, "shard1", mode)
    assert code == 1
    saved = first["findings"][0]
    assert not saved["from_database"]
    assert redis.Redis.from_url(redis_url).keys(b"rulesfuzz:*"), "shard 1 saved nothing in Redis"
    capsys.readouterr()
    # Shard 2/2 on another machine, same Redis: its first example is shard 1's saved failure.
    code, second = shard(tmp_path, 2, redis_url, "shard2", mode)
    assert code == 1
    replayed = second["findings"][0]
    assert replayed["key"] == saved["key"] and replayed["from_database"]
    assert replayed["examples_to_find"] == REPLAYED_AT[mode]
    assert replayed["scenario"]["board"] == saved["scenario"]["board"]
    assert "REPLAYED from the example database" in capsys.readouterr().out
    # Control: shard 2/2 with an empty Redis database (db 1) finds its bugs by generating them.
    code, alone = shard(tmp_path, 2, redis_url.rsplit("/", 1)[0] + "/1", "alone", mode)
    assert not any(f["from_database"] for f in alone["findings"])
