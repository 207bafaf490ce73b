"""A trained recognizer from Python: ltlkit.load_recognizer and its TorchScript export give the
logits `ltlkit score` (the evaluation's predictor in LibTorch) gives on the same words, for every
architecture and variant: global, k-local (k = 1 is a shift, k = 2 a banded window), hybrid by
heads and by layers, strict and non-strict masks, post-LN and pre-LN, NoPE / learned / sinusoidal
/ rotary positions, and the LSTM; words of mixed lengths in one batch (EOS and the padding after
it) and the empty word."""
import itertools
import json
import os
import subprocess

import pytest

torch = pytest.importorskip("torch")

import ltlkit  # noqa: E402
from conftest import CLI, run_cli  # noqa: E402

NEURAL = os.path.join(os.path.dirname(os.path.abspath(CLI)), "ltlkit-neural")
pytestmark = pytest.mark.skipif(not os.path.exists(NEURAL), reason="ltlkit was built without LibTorch (no ltlkit-neural)")

SMALL = {"--layers": "2", "--d-model": "8", "--heads": "2", "--d-ff": "16", "--steps": "3", "--batch": "4",
         "--train-lengths": "1:6", "--test-lengths": "7:8", "--per-length": "2", "--device": "cpu"}
VARIANTS = {  # options over SMALL's, and flags
    "global-learned": ({"--arch": "global", "--pe": "learned"}, []),
    "local-1": ({"--arch": "local-1"}, []),
    "local-2-sinusoidal-pre-ln": ({"--arch": "local-2", "--pe": "sinusoidal"}, ["--pre-ln"]),
    "hybrid-2-rope-non-strict": ({"--arch": "hybrid-2", "--pe": "rope", "--heads": "3", "--d-model": "12"}, ["--non-strict"]),
    "hybrid-1-layers": ({"--arch": "hybrid-1", "--layers": "3"}, ["--hybrid-layers"]),
    "lstm": ({"--arch": "lstm", "--lstm-hidden": "6"}, []),
}
# Every word up to length 4 and a few up to 8 (the learned table's limit: 9 positions with EOS).
WORDS = ["".join(w) for n in range(5) for w in itertools.product("ab", repeat=n)] + ["abbabba", "babababa", "bbbbbbbb"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    out = {}
    for name, (options, flags) in VARIANTS.items():
        run = str(root / name)
        args = [x for kv in {**SMALL, **options}.items() for x in kv] + flags
        p = subprocess.run([CLI, "train", "P(b & Y a)", "--alphabet", "a,b", *args, "--quiet", "--out", run],
                           capture_output=True, text=True, check=False)
        assert p.returncode == 0, f"{name}: {p.stderr}"
        out[name] = run
    words = root / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    return out, str(words)


def cli_logits(run, words_file):
    j = json.loads(run_cli("score", run, "--words", words_file, "--json").stdout)
    assert [r["word"] for r in j["results"]] == WORDS
    return torch.tensor([r["logit"] for r in j["results"]]), [r["label"] for r in j["results"]]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_python_and_torchscript_logits_equal_ltlkit_score(variant, runs, tmp_path):
    run, words_file = runs[0][variant], runs[1]
    want, labels = cli_logits(run, words_file)
    rec = ltlkit.load_recognizer(run)
    assert rec.alphabet == ["a", "b"]
    got = rec(WORDS)
    assert got.shape == (len(WORDS),)
    assert torch.allclose(got, want, rtol=1e-4, atol=1e-5), (variant, (got - want).abs().max().item())
    assert len(set(want.tolist())) > 3, "the logits do not depend on the word: the comparison would be weak"
    # The same words as symbol indices, and one word at a time (no padding at all).
    assert torch.allclose(rec([[rec.alphabet.index(c) for c in w] for w in WORDS]), got)
    assert torch.allclose(torch.cat([rec([w]) for w in WORDS]), got, rtol=1e-5, atol=1e-6)
    # TorchScript: opened by torch.jit.load alone, with the alphabet beside it.
    path = rec.save_torchscript(str(tmp_path / "model.pt"))
    extra = {"ltlkit.json": ""}
    scripted = torch.jit.load(path, _extra_files=extra)
    meta = json.loads(extra["ltlkit.json"])
    assert meta["alphabet"] == ["a", "b"] and meta["eos"] == 2
    tokens, eos = rec.encode(WORDS)
    with torch.no_grad():
        ts = scripted(tokens, eos)
    assert torch.allclose(ts, want, rtol=1e-4, atol=1e-5), (variant, (ts - want).abs().max().item())
    assert labels == [ltlkit.accepts("P(b & Y a)", w, alphabet="a,b") for w in WORDS]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_layout_in_run_json_is_the_derived_one_and_older_folders_load_without_it(variant, runs, tmp_path):
    """run.json's "layout" (written from Architecture::head_layout in C++) equals the head groups
    Python derives from the config for folders without it, and such a folder scores the same."""
    import shutil
    from ltlkit import recognizer
    run = runs[0][variant]
    info = json.load(open(os.path.join(run, "run.json"), encoding="utf-8"))
    config = info["config"]
    layout = recognizer.layout_groups(info["layout"])
    kind, _, k = config["arch"].partition("-")
    layers = 0 if kind == "lstm" else config["layers"]
    assert layout == [recognizer.head_groups(kind, int(k or 0), config["heads"], layer, config["hybrid_by_layer"])
                      for layer in range(layers)]
    for groups in layout:  # consecutive groups covering every head of the layer
        assert [g[0] for g in groups] == [sum(g[1] for g in groups[:i]) for i in range(len(groups))]
        assert sum(g[1] for g in groups) == config["heads"] and all(g[1] > 0 for g in groups)
    old = str(tmp_path / "old")
    shutil.copytree(run, old)
    del info["layout"]
    with open(os.path.join(old, "run.json"), "w", encoding="utf-8") as f:
        json.dump(info, f)
    assert torch.equal(ltlkit.load_recognizer(old)(WORDS), ltlkit.load_recognizer(run)(WORDS))


def test_renamed_or_missing_parameters_are_refused(runs, tmp_path, monkeypatch):
    from ltlkit import recognizer
    run = runs[0]["global-learned"]
    cpp_name = recognizer._cpp_name
    monkeypatch.setattr(recognizer, "_cpp_name", lambda name: cpp_name(name).replace("qkv", "q_k_v"))
    with pytest.raises(ValueError, match="no parameter block0.attn.q_k_v.weight"):
        ltlkit.load_recognizer(run)


def test_corrupted_checkpoint_is_refused(runs, tmp_path):
    import shutil
    run = str(tmp_path / "run")
    shutil.copytree(runs[0]["lstm"], run)
    path = os.path.join(run, "checkpoint.pt")
    data = bytearray(open(path, "rb").read())
    data[-100] ^= 1
    open(path, "wb").write(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        ltlkit.load_recognizer(run)
    with pytest.raises(ValueError, match="not in the run's alphabet"):
        ltlkit.load_recognizer(runs[0]["lstm"])(["abc"])


def test_example_script(runs, tmp_path):
    import sys
    from conftest import SOURCE_DIR
    p = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "examples", "load_recognizer.py"), runs[0]["local-1"],
                        "ab", "ba", ""], capture_output=True, text=True, cwd=tmp_path, check=False,
                       env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(ltlkit.__file__)))})
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert [line.split("\t")[0] for line in lines[:3]] == ["ab", "ba", "''"]
    assert (tmp_path / "model.pt").exists()
