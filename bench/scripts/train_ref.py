#!/usr/bin/python3
"""Reference for bench/neural/bench_train.cc: the same recognizer and training step in Python
PyTorch (Debian's python3-torch, same libtorch underneath), written the usual Python way: every
head's mask is a dense N x N boolean mask (global or k-local, strict), fused q|k|v projection,
post-LN blocks, ReLU FFN, EOS readout, BCE-with-logits, Adam, grad-norm clip 1.0.

Prints one JSON line: {"arch", "threads", "steps", "tokens", "seconds", "tokens_per_second"}.
Batches: length n = 1 + (i * 7919) % 40 at step i, random symbols over 2 letters, EOS at the end,
half the labels 1 — the same sequence as the C++ side.
"""
import argparse
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def head_windows(arch, heads):
    if arch == "global":
        return [0] * heads
    kind, k = arch.split("-")
    k = int(k)
    if kind == "local":
        return [k] * heads
    g = (heads + 1) // 2
    return [0] * g + [k] * (heads - g)


def visible_mask(n, window, device):
    i = torch.arange(n, device=device).unsqueeze(1)
    j = torch.arange(n, device=device).unsqueeze(0)
    vis = j < i
    if window > 0:
        vis = vis & (j >= i - window)
    return vis


class MHA(nn.Module):
    def __init__(self, d, heads, windows):
        super().__init__()
        self.h, self.dh, self.windows = heads, d // heads, windows
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        vis = torch.stack([visible_mask(n, w, x.device) for w in self.windows])  # [H, N, N]
        s = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh)
        p = torch.softmax(s.masked_fill(~vis, -1e30), -1)
        p = p * vis.any(-1, keepdim=True)  # nothing visible: zero output
        a = (p @ v).transpose(1, 2).reshape(b, n, d)
        return self.out(a)


class Block(nn.Module):
    def __init__(self, d, heads, d_ff, windows):
        super().__init__()
        self.attn = MHA(d, heads, windows)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, d_ff), nn.Linear(d_ff, d)

    def forward(self, x):
        h = self.ln1(x + self.attn(x))
        return self.ln2(h + self.ff2(F.relu(self.ff1(h))))


class Recognizer(nn.Module):
    def __init__(self, arch, symbols, layers, d, heads, d_ff):
        super().__init__()
        self.embed = nn.Embedding(symbols + 1, d)
        self.blocks = nn.ModuleList(Block(d, heads, d_ff, head_windows(arch, heads)) for _ in range(layers))
        self.readout = nn.Linear(d, 1)

    def forward(self, tokens, eos):
        x = self.embed(tokens)
        for b in self.blocks:
            x = b(x)
        return self.readout(x[torch.arange(x.shape[0]), eos]).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="global")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--layers", type=int, default=5)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--d-ff", type=int, default=256)
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()
    dev = torch.device(args.device)
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    m = Recognizer(args.arch, 2, args.layers, args.d_model, args.heads, args.d_ff).to(dev)
    opt = torch.optim.Adam(m.parameters(), lr=3e-4)
    tokens = 0
    t0 = None
    for i in range(args.warmup + args.steps):
        if i == args.warmup:
            sync()
            t0 = time.perf_counter()
            tokens = 0
        n = 1 + (i * 7919) % 40
        tok = torch.randint(0, 2, (args.batch, n + 1))
        tok[:, n] = 2
        eos = torch.full((args.batch,), n, dtype=torch.long)
        y = (torch.arange(args.batch) < (args.batch + 1) // 2).float()
        tok, eos, y = tok.to(dev), eos.to(dev), y.to(dev)
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(m(tok, eos), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()
        tokens += args.batch * (n + 1)
    sync()
    sec = time.perf_counter() - t0
    print(json.dumps({"arch": args.arch, "device": args.device, "threads": args.threads, "steps": args.steps, "tokens": tokens,
                      "seconds": sec, "tokens_per_second": tokens / sec}))


if __name__ == "__main__":
    main()
