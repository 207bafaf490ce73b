#!/usr/bin/python3
"""Reference for `ltlkit lm train`: the same causal language model and training step in Python
PyTorch (Debian's python3-torch, the same libtorch underneath), written the usual Python way:
every head's mask is a dense N x N boolean mask (global or k-local, standard causal j <= i),
fused q|k|v projection, pre-LN blocks, ReLU FFN, final LN, output layer tied to the embedding
(N(0, 1/d) init, scaled by sqrt(d) at the input), learned / sinusoidal / RoPE / no positions, cross-entropy, Adam, grad-norm
clip 1.0, random windows of the character-level training text.

Prints one JSON line: {"arch", "pe", "threads", "steps", "tokens", "seconds", "tokens_per_second"}
(seconds: the training steps after one warm-up step).
"""
import argparse
import json
import math
import random
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


def visible_mask(n, window):
    i = torch.arange(n).unsqueeze(1)
    j = torch.arange(n).unsqueeze(0)
    vis = j <= i
    if window > 0:
        vis = vis & (j >= i - window)
    return vis


def rope(x):
    n, dh = x.shape[2], x.shape[3]
    half = dh // 2
    inv = 10000.0 ** (-torch.arange(half, dtype=x.dtype) * (2.0 / dh))
    ang = torch.arange(1, n + 1, dtype=x.dtype).unsqueeze(1) * inv.unsqueeze(0)
    c, s = ang.cos(), ang.sin()
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], -1)


class MHA(nn.Module):
    def __init__(self, d, heads, windows, use_rope):
        super().__init__()
        self.h, self.dh, self.windows, self.rope = heads, d // heads, windows, use_rope
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if self.rope:
            q, k = rope(q), rope(k)
        vis = torch.stack([visible_mask(n, w) for w in self.windows])  # [H, N, N]
        s = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh)
        p = torch.softmax(s.masked_fill(~vis, -1e30), -1)
        a = (p @ v).transpose(1, 2).reshape(b, n, d)
        return self.out(a)


class Block(nn.Module):
    def __init__(self, d, heads, d_ff, windows, use_rope):
        super().__init__()
        self.attn = MHA(d, heads, windows, use_rope)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, d_ff), nn.Linear(d_ff, d)

    def forward(self, x):
        h = x + self.attn(self.ln1(x))
        return h + self.ff2(torch.relu(self.ff1(self.ln2(h))))


class LM(nn.Module):
    def __init__(self, vocab, a):
        super().__init__()
        self.pe, self.d = a.pe, a.d_model
        self.embed = nn.Embedding(vocab, a.d_model)
        nn.init.normal_(self.embed.weight, 0.0, a.d_model ** -0.5)
        if a.pe == "learned":
            self.pos = nn.Embedding(a.context, a.d_model)
            nn.init.normal_(self.pos.weight, 0.0, a.d_model ** -0.5)
        self.blocks = nn.ModuleList(
            Block(a.d_model, a.heads, a.d_ff, head_windows(a.arch, a.heads), a.pe == "rope") for _ in range(a.layers))
        self.final_ln = nn.LayerNorm(a.d_model)

    def forward(self, tokens):
        n = tokens.shape[1]
        x = self.embed(tokens) * math.sqrt(self.d)
        if self.pe == "learned":
            x = x + self.pos(torch.arange(n))
        elif self.pe == "sinusoidal":
            p = torch.arange(1, n + 1, dtype=x.dtype).unsqueeze(1)
            i2 = torch.arange(0, self.d, 2, dtype=x.dtype)
            ang = p * (10000.0 ** (-i2 / self.d)).unsqueeze(0)
            t = torch.zeros(n, self.d)
            t[:, 0::2], t[:, 1::2] = ang.sin(), ang.cos()[:, : self.d // 2]
            x = x + t
        for b in self.blocks:
            x = b(x)
        return self.final_ln(x) @ self.embed.weight.t()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--arch", default="global")
    ap.add_argument("--pe", default="learned")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d-model", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--d-ff", type=int, default=512)
    ap.add_argument("--context", type=int, default=128)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    text = open(a.train, encoding="utf-8").read()
    vocab = {c: i + 1 for i, c in enumerate(sorted(set(text)))}  # 0 = <unk>
    data = torch.tensor([vocab[c] for c in text], dtype=torch.long)
    model = LM(len(vocab) + 1, a)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    rng = random.Random(a.seed)
    n, b = a.context, a.batch

    def step():
        starts = [rng.randrange(len(data) - n) for _ in range(b)]
        x = torch.stack([data[s : s + n] for s in starts])
        y = torch.stack([data[s + 1 : s + n + 1] for s in starts])
        opt.zero_grad()
        loss = F.cross_entropy(model(x).reshape(b * n, -1), y.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    step()  # warm-up
    t0 = time.perf_counter()
    for _ in range(a.steps):
        step()
    sec = time.perf_counter() - t0
    tokens = a.steps * b * n
    print(json.dumps({"arch": a.arch, "pe": a.pe, "threads": a.threads, "steps": a.steps, "tokens": tokens,
                      "seconds": round(sec, 3), "tokens_per_second": round(tokens / sec, 1)}))


if __name__ == "__main__":
    main()
