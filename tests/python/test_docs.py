"""docs/PYTHON.md: every ```python block runs, in order, in one namespace, in a scratch folder."""
import os
import re

import pytest

from conftest import SOURCE_DIR

DOC = os.path.join(SOURCE_DIR, "docs", "PYTHON.md")


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_python_md_blocks_run(tmp_path, monkeypatch, capsys):
    with open(DOC, encoding="utf-8") as f:
        blocks = python_blocks(f.read())
    assert len(blocks) >= 8, "docs/PYTHON.md lost its code blocks"
    if any("import torch" in b for b in blocks):
        pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for i, block in enumerate(blocks, 1):
        try:
            exec(compile(block, f"{DOC} block {i}", "exec"), namespace)
        except Exception as e:
            raise AssertionError(f"docs/PYTHON.md block {i} failed: {e!r}\n{block}") from e
    out = capsys.readouterr().out
    # What the text around the blocks claims.
    assert "LTL[P,Y]" in out
    assert "ab" in out.splitlines()
    assert (tmp_path / "data" / "contains-ab" / "meta.json").exists()
    acc = float(re.search(r"test accuracy: ([0-9.]+)", out).group(1))
    assert 0 <= acc <= 1
