"""The README is a front page (issue 59): short, its benchmark table between the markers the
benchmark script writes, the learners with their papers cited, and links that lead somewhere.

(The two commands of its first code block are checked in tests/test_setup.py, the Frugal tree's
default in tests/test_paper003.py, its first example in tests/test_packaging.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_short():
    assert len(README.splitlines()) <= 250


def test_the_benchmark_table_between_its_markers_with_date_and_machine():
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    assert README.count(begin) == README.count(end) == 1
    block = README[README.index(begin) : README.index(end)]
    rows = [ln for ln in block.splitlines() if ln.startswith("| ")]
    assert len(rows) >= 3 and rows[0].startswith("| stream |")
    assert re.search(r"- Measured: 20\d\d-\d\d-\d\d \d\d:\d\d UTC, git [0-9a-f]{7}", block)
    assert re.search(r"- Machine: .+, \d+ cores", block)
    # the benchmark script writes that block, and finds it
    script = (ROOT / "benchmarks" / "bench_hoeffding.py").read_text()
    assert 'update_readme_block(\n        "bench"' in script or '"bench", data' in script


def test_the_learners_with_their_papers_by_authors_title_and_year():
    table = README[README.index("## The learners and their papers") :]
    table = table[: table.index("\n## ")]
    rows = [ln for ln in table.splitlines() if ln.startswith("| `")]
    learners = {"HoeffdingTree", "CTree", "BOCT", "UFFT", "FrugalHoeffdingTree", "EFDT"}
    assert {re.match(r"\| `(\w+)", r).group(1) for r in rows} == learners
    for row in rows:
        paper = row.rstrip(" |").rsplit("|", 1)[1]
        assert re.search(r"\*[^*]+\*, (19|20)\d\d$", paper.strip()), row  # *title*, year
    # the papers are cited, never numbered: no "000"-"004" in the front page's prose
    prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", README, flags=re.S))
    assert not re.search(r"(?<![\w,.])00[0-4](?![\w])", prose)


def test_links_lead_somewhere_and_the_guide_is_in_the_book():
    links = re.findall(r"\]\(([^)#]+)\)", README)
    local = [link for link in links if not link.startswith(("http://", "https://"))]
    assert local
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, missing
    for page in ("docs/usage.md", "docs/architecture.md", "docs/extending.md"):
        assert page in local
    from workbench import book

    assert [p.relative_to(ROOT).as_posix() for p in book.GUIDE] == [
        "docs/usage.md",
        "docs/architecture.md",
        "docs/extending.md",
    ]


def test_the_install_without_dev_py_and_the_first_use_are_stated():
    assert "pip install ." in README and "streaming-trees-workbench" in README
    first_use = re.search(
        r"first use.{0,200}?(\d+\.\d+) s.{0,120}?(20\d\d-\d\d-\d\d)", README, re.S
    )
    assert first_use, "the first use's compile time, with the date of its run"
