"""The dataset arrays in a PyTorch DataLoader (skipped where torch is not installed)."""
import numpy as np
import pytest

import ltlkit

torch = pytest.importorskip("torch")


def test_split_in_a_dataloader(tmp_path):
    ds = ltlkit.generate_dataset("Y a", str(tmp_path / "d"), train="1:8", test="9:10", per_length=8, alphabet="a,b")
    train = ds["train"]
    loader = torch.utils.data.DataLoader(train, batch_size=16, shuffle=True)
    seen = 0
    for words, lengths, labels in loader:
        assert words.dtype == torch.int64 and words.shape[1] == train.words.shape[1]
        # Y a: accepted iff the last symbol is a (index 0).
        last = words[torch.arange(len(words)), lengths - 1]
        assert torch.equal((last == 0).long(), labels)
        seen += len(labels)
    assert seen == len(train)
    tensors = torch.utils.data.TensorDataset(*(torch.from_numpy(a) for a in (train.words, train.lengths, train.labels)))
    assert len(tensors) == len(train)
    assert train.pad == 2 and np.all(train.words[train.lengths == 1][:, 1:] == 2)


def test_sampler_into_a_tensor():
    s = ltlkit.Sampler("a S b", 12, alphabet="a,b,c")
    x = torch.from_numpy(s.sample(12, False, count=64, seed=9))
    assert x.shape == (64, 12)
    d = s.dfa
    assert not any(d.accepts(row.tolist()) for row in x)
