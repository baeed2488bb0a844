"""Settings of ``rulesfuzz run`` in the user's ``pyproject.toml`` (``[tool.rulesfuzz]``), with named profiles.

The nearest ``pyproject.toml`` from the working folder upward is read (``tomllib``).
Its ``[tool.rulesfuzz]`` table takes the long options of ``rulesfuzz run`` without the
dashes (``engine``, ``max-examples``, ``keep-going = true``, ``invariant = [...]``,
``workers = "auto"``...); ``[tool.rulesfuzz.profiles.NAME]`` tables take the same keys
and are chosen with ``--profile NAME``. Two profiles are built in, for CI:

* ``gate``: deterministic, for every push: a fixed seed, a budget in examples (no time
  budget), ``--keep-going``; saved failures are replayed first as always.
* ``explore``: larger budgets, for a nightly or weekly job: more examples and steps,
  a time budget, ``--keep-going``, one worker per core.

Both explore (the rules on plain random draws, the default of every run: about twice the
steps per second; findings are reduced, not shrunk by Hypothesis) unless ``hypothesis =
true`` is set.

A pyproject profile of the same name extends the built-in one. Precedence, lowest first:
the options' defaults, ``[tool.rulesfuzz]``, the built-in profile, the pyproject profile,
the command line. Relative paths in the file (``replay-dir``, ``baseline``, ``json``,
``junit-xml``, ``oracle`` (one path or a list of them), a directory ``database``, a
``path/to/file.py:attr`` engine, and the words of an ``exec:`` engine that name an existing
file or folder there) are relative to the folder of the ``pyproject.toml``. An unknown key or profile, a value of the
wrong type or a file that isn't TOML raises :class:`ConfigError` (one line: exit 2).
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from harness.protocol import RulesfuzzError

#: The built-in profiles (option names without dashes -> values).
BUILTIN_PROFILES: dict[str, dict] = {
    "gate": {"seed": 0, "max-examples": 300, "keep-going": True},
    "explore": {"max-examples": 20_000, "max-seconds": 1800, "steps": 30, "keep-going": True, "workers": "auto"},
}

#: Keys whose values are paths (relative to the pyproject.toml's folder).
PATH_KEYS = ("replay-dir", "baseline", "json", "junit-xml")
#: Keys of repeatable options whose values are paths: one path or a list of them (``oracle``).
PATH_LIST_KEYS = ("oracle",)
#: Keys of untyped options that take a number as well as a word (``workers = 4`` or ``"auto"``);
#: every other untyped option takes a string only.
NUMBER_OR_WORD_KEYS = ("workers",)
#: Options that make no sense in a settings file.
NOT_SETTINGS = ("help", "profile")


class ConfigError(ValueError, RulesfuzzError):
    """A ``[tool.rulesfuzz]`` table, profile or value that can't be used; the message says where and why."""


def find_pyproject(start: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` (default: the working folder) or a parent, or None."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        path = candidate / "pyproject.toml"
        if path.is_file():
            return path
    return None


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The long options of ``parser`` by name without dashes (``max-examples`` -> its action)."""
    return {opt[2:]: action for action in parser._actions for opt in action.option_strings
            if opt.startswith("--") and opt[2:] not in NOT_SETTINGS}


def _value(where: str, key: str, value, action: argparse.Action):
    """``value`` checked and converted as the command line would (``action.type``). Raises ConfigError."""
    if isinstance(action, argparse._StoreTrueAction):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {key} = {value!r}: expected true or false")
        return value
    if isinstance(action, argparse._AppendAction):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: {key} = {value!r}: expected a list of strings")
        return list(value)
    if isinstance(value, (bool, list, dict)) or value is None:
        raise ConfigError(f"{where}: {key} = {value!r}: expected a string or a number")
    if action.type is None:
        if not isinstance(value, str) and key not in NUMBER_OR_WORD_KEYS:  # engine = 5: checked here, so
            raise ConfigError(f"{where}: {key} = {value!r}: expected a string")  # even when overridden
        return str(value)
    convert = action.type
    assert callable(convert)  # the parser names no type by a registered string
    try:
        return convert(str(value))
    except (argparse.ArgumentTypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {key} = {value!r}: {exc}") from None


def _table(where: str, table, options: dict, base: Path) -> dict:
    """A settings table -> ``{dest: value}``, checked; relative paths resolved against ``base``."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table of settings")
    out = {}
    for key, value in table.items():
        if key not in options:
            raise ConfigError(f"{where}: unknown key {key!r}; expected one of: {', '.join(sorted(options))}")
        if key in PATH_LIST_KEYS and isinstance(value, str):
            value = [value]  # oracle = "cards.json" is oracle = ["cards.json"]
        value = _value(where, key, value, options[key])
        if key in PATH_LIST_KEYS:
            value = [str(base / v) for v in value]
        elif key in PATH_KEYS or (key == "database" and "://" not in value and value not in ("memory", "none")):
            value = str(base / value)
        elif key in ("engine", "against") and value.startswith("exec:"):
            value = _exec_relative_to(value, base)
        elif key in ("engine", "against") and ".py:" in value:
            value = str(base / value)
        out[options[key].dest] = value
    return out


def _exec_relative_to(spec: str, base: Path) -> str:
    """An ``exec:COMMAND ARGS...`` engine of the file with each word that is a relative path of an
    existing file or folder in ``base`` made absolute (``exec:node engine.js`` ->
    ``exec:node /project/engine.js``; the command only when it has a ``/``: ``./engine``), so it
    starts from any working folder; other words are kept."""
    import shlex

    try:
        words = shlex.split(spec[len("exec:"):])
    except ValueError:
        return spec  # unbalanced quotes: loading the engine says so
    # The command itself only when it is a path (a bare name is looked up in PATH, as a shell would).
    resolved = [str(base / w) if w and not Path(w).is_absolute() and not w.startswith("-") and (base / w).exists()
                and (i > 0 or "/" in w) else w for i, w in enumerate(words)]
    return spec if resolved == words else "exec:" + shlex.join(resolved)


def load_settings(parser: argparse.ArgumentParser, profile: str | None = None,
                  start: Path | None = None, profile_flag: str = "--profile") -> tuple[dict, Path | None]:
    """The settings for ``rulesfuzz run`` (``parser``): ``({dest: value}, the pyproject.toml read or None)``.

    ``profile`` is a built-in or pyproject profile name (None: none), given with the option
    ``profile_flag`` (named in the error for an unknown profile). Raises
    :class:`ConfigError` for an unknown key or profile, a bad value, or a file that isn't TOML.
    """
    options = _options(parser)
    path = find_pyproject(start)
    data: dict = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("rulesfuzz", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: [tool.rulesfuzz] must be a table")
    base = path.parent if path is not None else Path.cwd()
    top = {k: v for k, v in data.items() if k != "profiles"}
    profiles = data.get("profiles", {})
    if not isinstance(profiles, dict):
        raise ConfigError(f"{path}: [tool.rulesfuzz.profiles] must hold tables, one per profile")
    settings = _table(f"{path} [tool.rulesfuzz]", top, options, base)
    if profile is not None:
        if profile not in BUILTIN_PROFILES and profile not in profiles:
            known = sorted({*BUILTIN_PROFILES, *profiles})
            raise ConfigError(f"{profile_flag} {profile}: no such profile; known: {', '.join(known)}"
                              f"{'' if path else ' (no pyproject.toml found)'}")
        settings.update(_table(f"built-in profile {profile}", BUILTIN_PROFILES.get(profile, {}), options, base))
        settings.update(_table(f"{path} [tool.rulesfuzz.profiles.{profile}]", profiles.get(profile, {}),
                               options, base))
    for name, table in profiles.items():  # every profile is checked, chosen or not: a typo fails at once
        _table(f"{path} [tool.rulesfuzz.profiles.{name}]", table, options, base)
    return settings, path
