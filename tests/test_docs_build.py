"""The user docs (mkdocs.yml, docs/) build with MkDocs in strict mode: a warning (a page missing
from the nav, a broken link between pages) fails the test, so the docs can't rot silently."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_build_with_no_warning(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "reference" / "index.html").is_file()


def test_every_page_of_docs_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    listed = set(re.findall(r":\s*([a-z0-9/-]+\.md)\s*$", nav, flags=re.M))
    assert pages - listed == set(), f"pages not in mkdocs.yml's nav: {sorted(pages - listed)}"
    assert listed - pages == set(), f"nav entries with no page: {sorted(listed - pages)}"


def test_the_readme_is_what_a_new_user_needs():
    """At most 250 lines: the details live in docs/, and every docs page it links exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).is_file(), link
