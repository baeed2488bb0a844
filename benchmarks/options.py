"""Command-line option types the benchmark scripts share."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (examples, seeds, repeats). Raises
    ``argparse.ArgumentTypeError`` (argparse's one-line usage error, exit 2) otherwise."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value
