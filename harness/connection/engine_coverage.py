"""Engine code coverage with coverage.py: which lines and branches of the engine's own
source a run executed (``rulesfuzz run --engine-coverage``).

The engine's source is found from the engine object: for every module that defines its
class, the class of its games and their bases, the package's top folder when the module
is in a package, else the module's file (a fork in a folder of forks is measured alone),
leaving out rulesfuzz's
harness, invariants and card data, the standard library and installed packages. A fork
of the reference engine is measured with ``reference_engine/``, whose rules it runs. An
engine in another process (``exec:``, ``--isolate``) has no Python source here: coverage
is not applicable to it (:class:`NotApplicable`; use the coverage tool of its language).
A run split over ``--workers`` processes is measured in each worker
(:func:`measuring_worker`), and their data combined into the run's data file when the
run ends (coverage.py's parallel data files and ``combine``).

Totals count the lines and branches inside the engine's functions (the rules code): the
module level of an engine imported before measuring started (class and function
definitions) ran at import and is left out. In differential mode, the reference engine
run as the oracle counts too when it is the engine's own source (a fork's).
"""

from __future__ import annotations

import inspect
import json
import shutil
import sys
import sysconfig
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator
from harness.protocol import RulesfuzzError

#: rulesfuzz's own packages, never the engine's source.
OWN_PACKAGES = ("harness", "invariants", "cards")


class NotApplicable(RulesfuzzError):
    """The engine has no Python source in this process (a child process, ``exec:``); the message says why."""


@dataclass
class CoverageSummary:
    """What ``--engine-coverage`` reports.

    ``lines`` and ``branches`` are ``(covered, total)`` inside the engine's functions;
    ``never_reached`` lists ``"path:function"`` for each function none of whose lines ran;
    ``functions`` counts the functions measured; ``data_file`` is coverage.py's data
    file (``coverage html --data-file=...`` shows it); ``sources`` the folders measured.
    """

    lines: tuple[int, int]
    branches: tuple[int, int]
    functions: int
    never_reached: list[str] = field(default_factory=list)
    data_file: str = ""
    sources: list[str] = field(default_factory=list)

    @staticmethod
    def percent(part: tuple[int, int]) -> float:
        return 100.0 * part[0] / part[1] if part[1] else 100.0

    def to_json(self) -> dict:
        return {"lines": {"covered": self.lines[0], "total": self.lines[1], "percent": round(self.percent(self.lines), 1)},
                "branches": {"covered": self.branches[0], "total": self.branches[1],
                             "percent": round(self.percent(self.branches), 1)},
                "functions": self.functions, "never_reached": self.never_reached, "data_file": self.data_file,
                "sources": self.sources}

    def describe(self, limit: int = 15) -> str:
        """A few lines for the run's summary: totals, then the functions never reached (at most ``limit``)."""
        out = [f"Engine coverage ({', '.join(self.sources)}): lines {self.lines[0]}/{self.lines[1]} "
               f"({self.percent(self.lines):.1f}%), branches {self.branches[0]}/{self.branches[1]} "
               f"({self.percent(self.branches):.1f}%) in {self.functions} functions; data file {self.data_file} "
               f"(coverage html --data-file={self.data_file})"]
        if self.never_reached:
            out.append(f"  {len(self.never_reached)} function(s) never reached:")
            out += [f"    {name}" for name in self.never_reached[:limit]]
            if len(self.never_reached) > limit:
                out.append(f"    ... and {len(self.never_reached) - limit} more (--json has them all)")
        return "\n".join(out)


def _excluded_roots() -> list[Path]:
    roots = [Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
             if (p := sysconfig.get_paths().get(key))]
    here = Path(__file__).resolve().parents[2]
    return roots + [here / name for name in OWN_PACKAGES]


def _source_folder(cls: type) -> Path | None:
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    if not path:  # a module not in sys.modules: the file its methods were compiled from
        code = next((f.__code__ for f in vars(cls).values() if hasattr(f, "__code__")), None)
        path = code.co_filename if code is not None and Path(code.co_filename).is_file() else None
    if not path:
        return None
    path = Path(path).resolve()
    top = (cls.__module__ or "").split(".")[0]
    if "." in cls.__module__ or path.name == "__init__.py":  # in a package: its top folder
        folder = path.parent
        for _ in range(cls.__module__.count(".") - (0 if path.name == "__init__.py" else 1)):
            folder = folder.parent
        return folder if folder.name == top else path
    return path


def engine_sources(engine) -> list[str]:
    """The folders and files of ``engine``'s own source (module docstring). Raises :class:`NotApplicable`
    for an engine in another process or one whose source can't be found."""
    from harness.connection.rpc import ProcessEngine

    if isinstance(engine, ProcessEngine):
        raise NotApplicable("--engine-coverage: not applicable to an engine in another process (exec: or "
                            "--isolate); measure it with the coverage tool of its language")
    classes: list[type] = []
    for obj in (engine, getattr(engine, "_engine", None)):
        if obj is not None:
            classes += inspect.getmro(type(obj))
            game_class = getattr(obj, "game_class", None)
            if isinstance(game_class, type):
                classes += inspect.getmro(game_class)
    excluded = _excluded_roots()
    folders: list[str] = []
    for cls in classes:
        folder = _source_folder(cls)
        if folder is None or any(folder == root or root in folder.parents for root in excluded):
            continue
        if str(folder) not in folders:
            folders.append(str(folder))
    if not folders:
        raise NotApplicable(f"--engine-coverage: no Python source found for engine {engine.info.name!r}")
    return folders


@dataclass(frozen=True)
class WorkerMeasure:
    """What a worker process needs to measure the engine's source (picklable): ``data_file``,
    a path whose folder collects the workers' parallel data files (:meth:`EngineCoverage.for_workers`),
    and ``include``, coverage.py's file patterns of the engine's source."""

    data_file: str
    include: tuple[str, ...]


def _coverage(data_file: str, include, suffix: bool = False):
    import coverage

    return coverage.Coverage(data_file=data_file, data_suffix=suffix, branch=True, include=list(include),
                             config_file=False)


@contextmanager
def measuring_worker(measure: WorkerMeasure | None) -> Iterator[None]:
    """Measure the engine's source in this (worker) process while the block runs, and save the
    data to a parallel data file beside ``measure.data_file`` (its name, a suffix with this
    process's id) when it ends, before the worker reports its end. None: measure nothing."""
    if measure is None:
        yield
        return
    measuring = _coverage(measure.data_file, measure.include, suffix=True)
    measuring.start()
    try:
        yield
    finally:
        measuring.stop()
        with _quiet():  # a worker that took no slot ran no engine code: nothing to say
            measuring.save()


@contextmanager
def _quiet() -> Iterator[None]:
    """Without coverage.py's warnings (e.g. "No data was collected" of a process that ran no engine code)."""
    import warnings

    from coverage.exceptions import CoverageWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        yield


class EngineCoverage:
    """Measures ``engine``'s source while the ``with`` block runs; then :meth:`summary`.

    ``data_file`` is where coverage.py's data goes (created or replaced). With
    ``in_workers`` the engine runs in worker processes only: this process measures nothing,
    :meth:`for_workers` says what each worker measures, and the block's end combines their
    data into ``data_file``. Raises :class:`NotApplicable` (see :func:`engine_sources`).
    """

    def __init__(self, engine, data_file: str | Path = ".coverage.rulesfuzz-engine", in_workers: bool = False):
        self.sources = engine_sources(engine)
        self.data_file = str(data_file)
        self.include = tuple(str(Path(p) / "*") if Path(p).is_dir() else p for p in self.sources)
        self.in_workers = in_workers
        self._coverage = _coverage(self.data_file, self.include)
        self._parts: str | None = None

    def for_workers(self) -> WorkerMeasure:
        """What worker processes measure (:func:`measuring_worker`) inside the block: their data
        files go to a temporary folder, combined into ``data_file`` and removed when the block ends."""
        if self._parts is None:
            raise RuntimeError("EngineCoverage.for_workers() is for inside its with block, made with in_workers=True")
        return WorkerMeasure(str(Path(self._parts) / Path(self.data_file).name), self.include)

    def __enter__(self) -> EngineCoverage:
        self._coverage.erase()
        if self.in_workers:
            self._parts = tempfile.mkdtemp(prefix="rulesfuzz-engine-coverage-")
        else:
            self._coverage.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._parts is None:
            self._coverage.stop()
            self._coverage.save()
            return
        try:
            with _quiet():
                if any(Path(self._parts).iterdir()):
                    self._coverage.combine(data_paths=[self._parts], keep=False)
                self._coverage.save()
        finally:
            shutil.rmtree(self._parts, ignore_errors=True)
            self._parts = None

    def summary(self) -> CoverageSummary:
        """Totals over the engine's functions and the functions never reached (from coverage.py's JSON report)."""
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "coverage.json"
            self._coverage.json_report(outfile=str(out))
            report = json.loads(out.read_text(encoding="utf-8"))
        lines = [0, 0]
        branches = [0, 0]
        functions = 0
        never: list[str] = []
        for path, measured in sorted(report.get("files", {}).items()):
            for name, function in measured.get("functions", {}).items():
                if not name:  # the module level (code outside any function)
                    continue
                s = function["summary"]
                functions += 1
                lines[0] += s["covered_lines"]
                lines[1] += s["num_statements"]
                branches[0] += s.get("covered_branches", 0)
                branches[1] += s.get("num_branches", 0)
                if s["num_statements"] and not s["covered_lines"]:
                    never.append(f"{_relative(path)}:{name}")
        return CoverageSummary((lines[0], lines[1]), (branches[0], branches[1]), functions, never, self.data_file, self.sources)


def _relative(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path
