"""The how-to guides of ``docs/guides/`` are walked through exactly as written.

Each guide is a sequence of fenced blocks. A block with ``title="PATH"`` creates that file
(``title="PATH (append)"`` appends to it); a ``diff`` block with ``title="PATH (patch)"`` changes
lines of an existing file: its body is the hunks of a unified diff of PATH (``@@ -a,b +c,d @@``
lines with their context, no ``---``/``+++`` headers, which the walk adds from the title), applied
with ``git apply``, which requires every context and removed line to be in the file as written
(the hunk may have moved: line offsets are allowed), so a patch that no longer applies fails the
walk; an ``sh`` block is commands, one per line, each ending
in ``# exit N``, the exit code the guide promises. The walk copies the project into a temporary
folder, applies the blocks in order and runs the commands there with the copy first on
``PYTHONPATH``, so a guide that goes stale (a file moved, a command's exit code changed, an API
renamed) fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))

_BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.S | re.M)
_TITLE = re.compile(r'title="([^"]+)"')
_EXIT = re.compile(r"\s+# exit (\d+)\s*$")
_IGNORED = shutil.ignore_patterns(".git", ".venv*", "*.egg-info", "__pycache__", ".hypothesis*", "site",
                                  "rulesfuzz-replays", ".pytest_cache", "node_modules")


def steps(guide: Path) -> list[tuple[str, str, str]]:
    """The guide's actions in order: ``("write"|"append"|"patch", path, text)`` or ``("run", command, code)``.

    Raises AssertionError for a command without its ``# exit N``."""
    out = []
    for lang, info, body in _BLOCK.findall(guide.read_text(encoding="utf-8")):
        title = _TITLE.search(info)
        if title:
            path = title.group(1)
            if path.endswith(" (append)"):
                out.append(("append", path[: -len(" (append)")], body))
            elif path.endswith(" (patch)"):
                assert lang == "diff", f"{guide.name}: a (patch) block is a diff block: {path}"
                out.append(("patch", path[: -len(" (patch)")], body))
            else:
                out.append(("write", path, body))
        elif lang == "sh":
            for line in body.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                code = _EXIT.search(line)
                assert code, f"{guide.name}: a command without its '# exit N': {line}"
                out.append(("run", line[: code.start()], code.group(1)))
    return out


def apply_patch(root: Path, path: str, hunks: str) -> None:
    """Apply a ``(patch)`` block's ``hunks`` to ``root/path`` with ``git apply`` (outside any
    repository: ``root`` is the copy); AssertionError, with git's reason, when they don't apply."""
    assert hunks.lstrip().startswith("@@") and "\n--- " not in hunks and "\n+++ " not in hunks, (
        f"a (patch) block of {path} is hunks only (@@ ... @@ lines and their context), no file headers")
    patch = f"--- a/{path}\n+++ b/{path}\n{hunks}"
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(root.parent)}
    done = subprocess.run(["git", "apply", "--verbose", "-"], cwd=root, input=patch, capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, f"the patch of {path} no longer applies:\n{done.stderr[-3000:]}"


def test_a_patch_block_changes_lines_and_a_stale_one_fails(tmp_path):
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "table.py").write_text("ROWS = (\n    \"a\",\n    \"b\",\n)\n", encoding="utf-8")
    hunks = "@@ -2,3 +2,4 @@\n     \"a\",\n     \"b\",\n+    \"c\",\n )\n"
    apply_patch(root, "pkg/table.py", hunks)
    assert (root / "pkg" / "table.py").read_text(encoding="utf-8") == "ROWS = (\n    \"a\",\n    \"b\",\n    \"c\",\n)\n"
    (root / "pkg" / "table.py").write_text("ROWS = (\n    \"a\",\n    \"B\",\n)\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="no longer applies"):
        apply_patch(root, "pkg/table.py", hunks)
    guide = tmp_path / "g.md"
    guide.write_text('```diff title="pkg/table.py (patch)"\n' + hunks + "```\n", encoding="utf-8")
    assert steps(guide) == [("patch", "pkg/table.py", hunks)]


def test_there_are_guides_and_each_has_commands():
    assert {g.stem for g in GUIDES} >= {"add-a-card", "add-an-invariant", "add-an-event-type"}
    for guide in GUIDES:
        kinds = {kind for kind, _, _ in steps(guide)}
        assert "run" in kinds and kinds & {"write", "append", "patch"}, guide.name


@pytest.mark.parametrize("guide", GUIDES, ids=[g.stem for g in GUIDES])
def test_the_guide_does_what_it_says(guide, tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(ROOT, copy, ignore=_IGNORED)
    env = {**os.environ, "PYTHONPATH": str(copy), "NO_COLOR": "1"}
    env.pop("PYTEST_XDIST_WORKER", None)
    bin_dir = Path(sys.executable).parent
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    for kind, target, payload in steps(guide):
        if kind == "write":
            (copy / target).parent.mkdir(parents=True, exist_ok=True)
            (copy / target).write_text(payload, encoding="utf-8")
        elif kind == "append":
            with open(copy / target, "a", encoding="utf-8") as f:
                f.write(payload)
        elif kind == "patch":
            apply_patch(copy, target, payload)
        else:
            command = target.replace("python3 ", f"{sys.executable} ", 1) if target.startswith("python3 ") else target
            done = subprocess.run(["bash", "-c", command], cwd=copy, env=env, capture_output=True, text=True,
                                  timeout=900)
            assert done.returncode == int(payload), (
                f"{guide.name}: `{target}` exited {done.returncode}, the guide says {payload}\n"
                f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
