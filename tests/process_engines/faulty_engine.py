"""A child-process engine that misbehaves on every sacrifice event, for the isolation tests.

``python tests/process_engines/faulty_engine.py MODE [ENGINE]``: ENGINE (an in-process
engine spec, default the reference engine) served over the wire protocol, except that
applying a ``sacrifice`` event does MODE:

* ``crash``: the process dies of SIGSEGV, as an engine with a broken native extension;
* ``hang``: it never answers;
* ``garbage``: it writes a line that is not JSON on stdout;
* ``exit_mid_apply``: it asks the harness a question (``choose``), then exits;
* ``unexpected``: it answers with a response to a request never made;
* ``wrong_result``: it applies the event, then answers with a list, not ``{"observation": ...}``;
* ``clean``: nothing (the reference engine);
* ``garbage_once``, ``blank_once``, ``unexpected_once``: a line that is not JSON, a blank line,
  or an answer to a request never made, only the first time of all (the file named by
  ``$RULESFUZZ_TEST_ONCE`` records that it happened, across restarts): a one-off protocol error.

It writes a line to stderr before misbehaving, and its pid to the file named by
``$RULESFUZZ_TEST_PIDFILE`` (when set) at start; with ``$RULESFUZZ_TEST_HELPER`` set it also
starts a helper process of its own (``sleep``, as an engine's server or launcher would be) and
writes ``helper PID`` there.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harness.connection.loading import load_engine  # noqa: E402
from harness.serve import Server  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "clean"
BASE = sys.argv[2] if len(sys.argv) > 2 else "reference"
OUT = os.fdopen(os.dup(1), "wb")
os.dup2(2, 1)


class FaultyGame:
    def __init__(self, game):
        self._game = game

    def apply(self, event, decider):
        if event.get("type") == "sacrifice" and MODE.endswith("_once"):
            once = Path(os.environ["RULESFUZZ_TEST_ONCE"])
            if not once.exists():
                once.write_text("done")
                print(f"faulty engine: about to {MODE} on {event}", file=sys.stderr, flush=True)
                OUT.write({"garbage_once": b"not JSON, once\n", "blank_once": b"\n",
                           "unexpected_once": b'{"jsonrpc": "2.0", "id": 424242, "result": null}\n'}[MODE])
                OUT.flush()
        elif event.get("type") == "sacrifice" and MODE != "clean":
            print(f"faulty engine: about to {MODE} on {event}", file=sys.stderr, flush=True)
            if MODE == "crash":
                os.kill(os.getpid(), signal.SIGSEGV)
            elif MODE == "hang":
                if os.environ.get("RULESFUZZ_TEST_PIDFILE"):
                    with open(os.environ["RULESFUZZ_TEST_PIDFILE"], "a") as f:
                        f.write(f"hang {os.getpid()}\n")
                time.sleep(3600)
            elif MODE == "garbage":
                OUT.write(b"Traceback? no: this is not JSON\n")
                OUT.flush()
            elif MODE == "exit_mid_apply":
                decider.choose("P1", "faulty_question", ["a", "b"])
                os._exit(7)
            elif MODE == "unexpected":
                OUT.write(b'{"jsonrpc": "2.0", "id": 424242, "result": null}\n')
                OUT.flush()
        self._game.apply(event, decider)

    def observe(self):
        return self._game.observe()


class FaultyServer(Server):
    def _dispatch(self, method, params):
        result = super()._dispatch(method, params)
        if MODE == "wrong_result" and method == "apply" and (params.get("event") or {}).get("type") == "sacrifice":
            return ["not", "an", "observation"]
        return result


class FaultyEngine:
    def __init__(self):
        self._engine = load_engine(BASE)
        self.info = self._engine.info

    def new_game(self, board):
        return FaultyGame(self._engine.new_game(board))


if __name__ == "__main__":
    if os.environ.get("RULESFUZZ_TEST_PIDFILE"):
        with open(os.environ["RULESFUZZ_TEST_PIDFILE"], "a") as f:
            f.write(f"{os.getpid()}\n")
            if os.environ.get("RULESFUZZ_TEST_HELPER"):
                import subprocess

                helper = subprocess.Popen(["sleep", "120"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                f.write(f"helper {helper.pid}\n")
    print(f"faulty engine ({MODE}) ready", file=sys.stderr, flush=True)
    FaultyServer(FaultyEngine(), sys.stdin.buffer, OUT).serve()
