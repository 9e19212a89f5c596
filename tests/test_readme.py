"""The README stays a short front page, its examples (now in docs/) run as written, and every
link between the project's documents leads somewhere."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted([*ROOT.glob("*.md"), *(ROOT / "docs").glob("*.md")])

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def python_blocks(path: pathlib.Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


def test_readme_is_a_short_front_page():
    lines = README.read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move details to docs/"


def test_python_api_example_runs(capsys):
    blocks = python_blocks(ROOT / "docs" / "PYTHON.md")
    assert blocks, "docs/PYTHON.md has no python example"
    namespace: dict = {}
    exec(compile(blocks[0], "docs/PYTHON.md", "exec"), namespace)
    game = namespace["game"]
    assert game.over
    assert namespace["again"].result() == game.result()
    out = capsys.readouterr().out
    assert "['6-6']" in out


def test_rl_example_runs():
    blocks = [b for b in python_blocks(ROOT / "docs" / "RL.md") if "bonepile.rl" in b]
    assert blocks, "docs/RL.md has no RL example"
    namespace: dict = {}
    exec(compile(blocks[0], "docs/RL.md", "exec"), namespace)
    e = namespace["e"]
    assert not e.agents  # the episode ran to its end: every agent stepped out
    assert e.unwrapped.match.over


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: pathlib.Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


def test_slug_matches_github():
    assert slug("In the terminal: `bonepile play`") == "in-the-terminal-bonepile-play"
    assert slug("Bots against the peers' bots") == "bots-against-the-peers-bots"
    assert slug("Levels (issue 11)") == "levels-issue-11"


def test_every_link_between_documents_resolves():
    broken = []
    for doc in DOCS:
        text = FENCE.sub("", doc.read_text())
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # an address on the web
            file, _, anchor = target.partition("#")
            dest = (doc.parent / file).resolve() if file else doc
            name = f"{doc.relative_to(ROOT)}: {target}"
            if not dest.exists():
                broken.append(f"{name} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{name} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)
