"""The README's Python example runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(capsys):
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README has no python example"
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    game = namespace["game"]
    assert game.over
    assert namespace["again"].result() == game.result()
    out = capsys.readouterr().out
    assert "['6-6']" in out


def test_readme_rl_example_runs():
    text = README.read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "bonepile.rl" in b]
    assert blocks, "README has no RL example"
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    e = namespace["e"]
    assert not e.agents  # the episode ran to its end: every agent stepped out
    assert e.unwrapped.match.over
