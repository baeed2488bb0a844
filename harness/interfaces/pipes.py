"""The command line's standard output when its reader goes away (``rulesfuzz ... | head``):
what is printed after is dropped, the command goes on and ends with its own exit code."""

from __future__ import annotations

import contextlib
import sys


class _ClosedPipeSafe:
    """``sys.stdout`` for the command line: when the reader of a pipe goes away (``| head``),
    what is printed after is dropped and the command goes on, writing its replay files and
    reports and ending with its own exit code; no ``BrokenPipeError`` traceback."""

    def __init__(self, stream):
        self._stream = stream
        self.closed_pipe = False

    @classmethod
    @contextlib.contextmanager
    def installed(cls):
        """Within the block ``sys.stdout`` is wrapped (once: a command run inside a command shares it)."""
        if isinstance(sys.stdout, cls) or sys.stdout is None:
            yield
            return
        original = sys.stdout
        sys.stdout = cls(original)
        try:
            yield
        finally:
            if isinstance(sys.stdout, cls) and sys.stdout._stream is original:
                sys.stdout = original

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._closed()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._closed()

    def _closed(self) -> None:
        self.closed_pipe = True
        _quiet_broken_pipe(keep_stderr=True)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _quiet_broken_pipe(keep_stderr: bool = False) -> None:
    """Point stdout at /dev/null so the interpreter's final flush can't complain about the closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if not keep_stderr:
        sys.stderr.close()
