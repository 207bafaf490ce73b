"""read_dataset's compact splits (docs/PYTHON.md): symbols + offsets reproduce, word for word, the
TSV files read in pure Python, for a one-character and a multi-character alphabet, in every split;
the padded view and ds[i] agree with them; symbols are uint8."""
import os

import numpy as np
import pytest

import ltlkit
from conftest import run_cli


def tsv_split(path, alphabet):
    """(words as index lists, labels, pairs) of SPLIT.tsv, read without ltlkit (docs/SYNTAX.md 8, 11)."""
    index = {s: i for i, s in enumerate(alphabet)}
    one_char = all(len(s) == 1 for s in alphabet)
    words, labels, pairs = [], [], []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines[1:]:  # the header
        if not line:
            continue
        fields = line.split("\t")
        text = fields[0]
        symbols = list(text) if one_char else (text.split(" ") if text else [])
        words.append([index[s] for s in symbols])
        labels.append(int(fields[1]))
        pairs.append(int(fields[2]) if len(fields) > 2 else -1)
    return words, labels, pairs


@pytest.mark.parametrize("formula,alphabet", [("Y a", "a,b"), ("P(b1 & Y a)", "a,b0,b1")])
def test_compact_arrays_are_the_files(tmp_path, formula, alphabet):
    out = str(tmp_path / "d")
    run_cli("generate", formula, "--alphabet", alphabet, "--train-lengths", "1:6", "--test-lengths", "7:12",
            "--per-length", "8", "--boundary-per-length", "2", "--seed", "5", "--out", out, "-q")
    ds = ltlkit.read_dataset(out)
    names = [f[:-4] for f in os.listdir(out) if f.endswith(".tsv")]
    assert {"train", "validation", "test", "boundary"} <= set(names)
    assert set(names) == set(ds.splits)
    for name in names:
        words, labels, pairs = tsv_split(os.path.join(out, name + ".tsv"), ds.alphabet)
        s = ds[name]
        assert s.symbols.dtype == np.uint8
        assert len(s) == len(words) > 0
        assert s.offsets[0] == 0 and s.offsets[-1] == len(s.symbols)
        assert s.labels.tolist() == labels and s.pairs.tolist() == pairs
        assert s.lengths.tolist() == [len(w) for w in words]
        assert [s.word(i).tolist() for i in range(len(s))] == words
        assert s.symbols.tolist() == [x for w in words for x in w]
        # The padded view (and DataLoader's items) hold the same words, padded with pad.
        width = max(len(w) for w in words)
        want = [w + [ds.pad] * (width - len(w)) for w in words]
        assert s.width == width and s.padded().tolist() == want and s.words.tolist() == want
        row, length, label = s[len(s) - 1]
        assert row.tolist() == want[-1] and length == len(words[-1]) and label == labels[-1]


def test_compact_is_smaller_than_padded(tmp_path):
    out = str(tmp_path / "d")
    run_cli("generate", "Y a", "--alphabet", "a,b", "--train-lengths", "1:4", "--test-lengths", "41:100",
            "--per-length", "16", "--out", out, "-q")
    test = ltlkit.read_dataset(out)["test"]
    compact = test.symbols.nbytes + test.offsets.nbytes
    assert test.padded().nbytes > 8 * compact  # uint8 vs int64 cells, and no padding
