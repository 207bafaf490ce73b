#!/usr/bin/env python3
"""Scores words with a recognizer trained by `ltlkit train`, and exports it as TorchScript
(docs/PYTHON.md "A trained recognizer"):

    ltlkit train 'P(b & Y a)' --alphabet a,b --arch local-1 --steps 300 --out runs/pb
    python3 examples/load_recognizer.py runs/pb ab ba abab ''

prints WORD, logit and answer per word, and writes model.pt (TorchScript) in the current folder.
"""
import sys

import torch

import ltlkit

run, words = sys.argv[1], sys.argv[2:] or ["ab", "ba", "abab", ""]
rec = ltlkit.load_recognizer(run)  # run.json + checkpoint.pt (checksum verified)
logits = rec(words)                # one logit per word, > 0: accepted
for word, logit in zip(words, logits.tolist()):
    print(f"{word or repr('')}\t{logit:+.4f}\t{'accepted' if logit > 0 else 'rejected'}")

rec.save_torchscript("model.pt")
model = torch.jit.load("model.pt")  # needs torch only: forward(tokens, eos) -> logits
tokens, eos = rec.encode(words)     # symbol indices, EOS = len(alphabet) at eos, padding after it
assert torch.allclose(model(tokens, eos), logits)
print("wrote model.pt (TorchScript) over", rec.alphabet)
