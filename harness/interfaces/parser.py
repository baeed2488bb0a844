"""The parser of the ``rulesfuzz`` command line (:mod:`harness.interfaces.cli`): one function per
command's options; bad usage is one line on stderr (exit 2)."""

from __future__ import annotations

import argparse

from harness.reporting import report


def _positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a{' whole' if kind is int else ''} number, got {text!r}") from None
        if not 0 < value < float("inf"):  # nan and inf are no budget or timeout
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return value

    return parse


class _OneLineParser(argparse.ArgumentParser):
    """argparse, with bad usage as one line on stderr (exit 2), as every other bad input: the
    usage summary is left to ``--help``. Its subcommands' parsers are of this class too."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="rulesfuzz",
        description="Property-based fuzzing of Magic: The Gathering rules engines.",
    )
    parser.add_argument("--version", action="version", version=f"rulesfuzz {report.version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = _add_run(sub)
    replay = _add_replay(sub)
    check, plan, cards = _add_others(sub)

    # --oracle FILE (run, replay, check, plan, cards): cards of the team's own Oracle data, MTGJSON's
    # AtomicCards shape
    for command in (run, replay, check, plan, cards):
        command.add_argument("--oracle", action="append", metavar="FILE",
                             help="add or override cards from this file of MTGJSON's AtomicCards shape (repeatable; "
                                  "the curated pool still wins for the same name)")
    return parser


def _add_run(sub) -> argparse.ArgumentParser:
    """``rulesfuzz run``: fuzz an engine."""
    run = sub.add_parser("run", help="fuzz an engine and report the smallest rules violation found")
    run.add_argument("--engine", required=True,
                     help="'reference', 'package.module:attribute', 'path/to/file.py:attribute' or "
                          "'exec:COMMAND ARGS...' (an engine in any language, docs/protocol.md)")
    run.add_argument("--against", metavar="ENGINE",
                     help="differential mode: compare every observation with this engine (e.g. 'reference')")
    run.add_argument("--max-examples", type=_positive(int), default=200, help="examples to generate (default 200)")
    run.add_argument("--max-seconds", type=_positive(float), default=None, help="wall-time budget in seconds")
    run.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    run.add_argument("--replay-dir", default="rulesfuzz-replays", help="where replay files go (default ./rulesfuzz-replays)")
    run.add_argument("--steps", type=_positive(int), default=20, help="events per example (default 20)")
    run.add_argument("--invariant", action="append", dest="invariants", metavar="NAME",
                     help="check only this invariant (repeatable); see `rulesfuzz invariants`")
    run.add_argument("--skip-invariant", action="append", dest="skip_invariants", metavar="NAME",
                     help="don't check this invariant (repeatable); see `rulesfuzz invariants`")
    run.add_argument("--database", default=".hypothesis/rulesfuzz",
                     help="Hypothesis example database: a directory, redis://host:port/db, 'memory' or 'none'")
    run.add_argument("--step-timeout", type=_positive(float), default=10.0,
                     help="seconds one engine call may take before it counts as a hang (default 10)")
    run.add_argument("--isolate", action="store_true",
                     help="run an in-process engine in a child process (a crash is a finding, not the end of the run)")
    run.add_argument("--unsupervised", action="store_true",
                     help="fuzz in this process, with no supervisor process (e.g. to debug with pdb): an in-process "
                          "engine that ends the process then ends the run")
    run.add_argument("--json", dest="json_path", help="also write the summary and finding as JSON to this file")
    run.add_argument("--junit-xml", dest="junit_path", metavar="FILE",
                     help="also write a JUnit XML report: one test case per invariant, failing with its finding")
    run.add_argument("--keep-going", action="store_true",
                     help="after a finding is shrunk and saved, go on looking for other distinct findings "
                          "(budgets are totals)")
    run.add_argument("--no-shrink", action="store_true",
                     help="report each finding as it was found: no shrinking or reduction (faster; the replay "
                          "file still reproduces it, with more events than a shrunk one)")
    run.add_argument("--baseline", metavar="FILE",
                     help="known findings (rulesfuzz baseline --from RUN.json): still reported, but the run "
                          "exits 0 when every finding is known")
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    run.add_argument("--workers", default="1", metavar="N",
                     help="worker processes (default 1; 'auto': one per core), seeds derived from --seed, one "
                          "shared example database; budgets are totals")
    run.add_argument("--profile", metavar="NAME",
                     help="settings of a profile: built-in 'gate' (deterministic, every push) or 'explore' (larger "
                          "budgets), or [tool.rulesfuzz.profiles.NAME] of pyproject.toml")
    run.add_argument("--shard", metavar="K/N",
                     help="run the K-th of N deterministic parts of the run (CI jobs; share --database redis://...)")
    run.add_argument("--explore", action="store_true",
                     help="the default: the rules on plain random draws outside Hypothesis's engine (about twice "
                          "the steps per second, its bugs in fewer examples); failures are reduced (steps and board "
                          "objects removed), saved in the example database and replayed first on the next run")
    run.add_argument("--hypothesis", action="store_true",
                     help="Hypothesis's engine generates the examples instead of --explore: it shrinks what it "
                          "finds and keeps it in its example database")
    run.add_argument("--coverage-guided", action="store_true",
                     help="weight the rules (events) and cards drawn toward the CR rules, rulings and cards "
                          "least exercised so far")
    run.add_argument("--engine-coverage", nargs="?", const=".coverage.rulesfuzz-engine", metavar="DATA_FILE",
                     help="measure the lines and branches of the engine's own source the run executes (coverage.py); "
                          "writes coverage's data file (default .coverage.rulesfuzz-engine)")
    return run


def _add_replay(sub) -> argparse.ArgumentParser:
    """``rulesfuzz replay``: re-run a scenario file, or a folder of them."""
    replay = sub.add_parser("replay", help="re-run a scenario file (or every one in a folder) and check it again")
    replay.add_argument("file", help="a scenario (replay) file, or a folder of them (a regression corpus)")
    replay.add_argument("--engine", required=True, help="as for `run`")
    replay.add_argument("--against", metavar="ENGINE", help="differential mode, as for `run`")
    replay.add_argument("--step-timeout", type=_positive(float), default=10.0,
                        help="seconds one engine call may take before it counts as a hang (default 10)")
    replay.add_argument("--isolate", action="store_true", help="as for `run`")
    replay.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                        help="a question the engine asks that the file records no answer for fails the replay "
                             "(default for rulesfuzz-scenario/3 files); --no-strict answers it with its first "
                             "option, with a note (default for /1 and /2 files)")
    return replay


def _add_others(sub) -> tuple:
    """``check``, ``baseline``, ``invariants``, ``cards``, ``plan`` and ``reference``: their parsers
    ``(check, plan, cards)`` (those ``--oracle`` is added to)."""
    check = sub.add_parser("check", help="a short conformance checklist for an engine: run it first")
    check.add_argument("--engine", required=True, help="as for `run`")
    check.add_argument("--step-timeout", type=_positive(float), default=10.0,
                       help="seconds one engine call may take before it counts as a hang (default 10)")
    check.add_argument("--isolate", action="store_true", help="as for `run`")

    base = sub.add_parser("baseline", help="write a baseline of known findings from a `run --json` report")
    base.add_argument("--from", dest="report", required=True, metavar="RUN.json", help="a `rulesfuzz run --json` report")
    base.add_argument("--output", "-o", default="rulesfuzz-baseline.json",
                      help="the baseline file to write (default ./rulesfuzz-baseline.json; '-' for stdout)")

    inv = sub.add_parser("invariants", help="list every invariant with its rules and required capabilities")
    inv.add_argument("--json", action="store_true", help="as JSON")

    cards = sub.add_parser("cards", help="list the card pool and what the reference engine does not model; "
                                         "NAME: how one card's Oracle text was read; --stats: how many cards are modelled")
    cards.add_argument("name", nargs="?", metavar="NAME",
                       help="an Oracle card name: each sentence with the template that read it, and its abilities")
    cards.add_argument("--json", action="store_true",
                       help="the card data as JSON (one object per card, with reference_not_modelled); with NAME, "
                            "the card's model")
    cards.add_argument("--stats", action="store_true",
                       help="how many cards of the database and the curated pool are modelled, and each template's count")
    cards.add_argument("--engine", help="the cards an engine declares (EngineInfo.cards), modelled or not and what "
                                        "wasn't read (as for `run`)")
    cards.add_argument("--step-timeout", type=_positive(float), default=10.0, help=argparse.SUPPRESS)

    plan = sub.add_parser("plan", help="the cards, board features, events and invariants a run of an engine "
                                       "uses, and what it leaves out and why")
    plan.add_argument("--engine", required=True, help="as for `run`")
    plan.add_argument("--json", action="store_true", help="as JSON")
    plan.add_argument("--step-timeout", type=_positive(float), default=10.0,
                      help="seconds one engine call may take before it counts as a hang (default 10)")

    sub.add_parser("reference", help="print the engine contract reference (docs/reference.md), generated from the "
                                      "code that enforces it")
    return check, plan, cards
