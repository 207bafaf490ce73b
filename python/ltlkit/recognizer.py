"""Trained recognizers of `ltlkit train` in PyTorch (docs/PYTHON.md "A trained recognizer").

`load_recognizer(run_dir)` reads a run folder (run.json and checkpoint.pt, checksum verified) and
returns a `LoadedRecognizer` that scores words; `.module` is a TorchScript-ready torch.nn.Module and
`.save_torchscript(path)` writes it as TorchScript, which `torch.jit.load` opens with no ltlkit.

The forward pass is written here a second time, in PyTorch, from the definitions that
neural/model.cc implements (docs/PROTOCOL.md "Models"): strict or non-strict causal masks, k-local
windows max(1, i-k) <= j, the head groups of each layer as run.json records them ("layout", written
from Architecture::head_layout; derived here only for older run folders), post-LN or pre-LN blocks, NoPE / learned / sinusoidal / rotary
positions, the readout at EOS, and the LSTM baseline. Masks are built densely from the definition
(neural/model.cc computes the same sums with banded kernels). The parameters are the C++ model's,
by name (its named_parameters(), blockN.* for blocks.N.*), loaded strictly: a renamed or reshaped
parameter in neural/model.cc fails the load, and tests/python/test_recognizer.py compares the
logits with `ltlkit score` on the same words for every architecture.

Why a re-implementation: LibTorch 1.13 C++ modules cannot be scripted or traced into TorchScript,
and tracing a Python model would freeze the data-dependent parts (word length, windows that cover
the input); scripting this module keeps every length exact.
"""
import hashlib as _hashlib
import io as _io
import json as _json
import math as _math
import os as _os
import tempfile as _tempfile
from typing import List, Optional, Sequence, Tuple, Union

import torch

__all__ = ["LoadedRecognizer", "Recognizer", "load_recognizer"]

_CHECKPOINT_MAGIC = b"ltlkit-checkpoint 1 "


def _rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding (Su et al. 2021), half-split form, positions 1..N; x: [B,H,N,dh]."""
    n, dh = x.size(2), x.size(3)
    half = dh // 2
    inv = torch.pow(10000.0, -torch.arange(half, dtype=x.dtype, device=x.device) * (2.0 / dh))
    ang = torch.arange(1, n + 1, dtype=x.dtype, device=x.device).unsqueeze(1) * inv.unsqueeze(0)
    c, s = ang.cos(), ang.sin()
    x1, x2 = x.narrow(-1, 0, half), x.narrow(-1, half, half)
    return torch.cat([x1 * c - x2 * s, x1 * s + x2 * c], -1)


def _sinusoidal(n: int, d: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """The sinusoidal table of Vaswani et al. 2017 §3.5 for positions 1..n: [n, d]."""
    p = torch.arange(1, n + 1, dtype=dtype, device=device).unsqueeze(1)
    i2 = torch.arange(0, d, 2, dtype=dtype, device=device)
    ang = p * torch.pow(10000.0, -i2 / d).unsqueeze(0)
    table = torch.zeros(n, d, dtype=dtype, device=device)
    table[:, 0::2] = ang.sin()
    table[:, 1::2] = ang.cos().narrow(1, 0, d // 2)
    return table


def head_groups(arch: str, k: int, heads: int, layer: int, by_layer: bool) -> List[Tuple[int, int, int]]:
    """(first head, count, window) per group of layer `layer`; window 0 = global.

    Only for run folders written before run.json recorded the layout (`layout_groups` reads it):
    the C++ side derives it once, in Architecture::head_layout (automata/architecture.cc)."""
    if arch == "global":
        return [(0, heads, 0)]
    if arch == "local":
        return [(0, heads, k)]
    if by_layer:
        return [(0, heads, k if layer % 2 == 0 else 0)]
    if heads == 1:
        return [(0, 1, 0)]
    return [(0, (heads + 1) // 2, 0), ((heads + 1) // 2, heads // 2, k)]


def layout_groups(layout: list) -> List[List[Tuple[int, int, int]]]:
    """The head groups per layer from run.json's "layout" (one list per layer of {"first", "count",
    "window"}, window null = global), as (first head, count, window) with window 0 = global."""
    return [[(int(g["first"]), int(g["count"]), int(g["window"] or 0)) for g in layer] for layer in layout]


class _Attention(torch.nn.Module):
    def __init__(self, d_model: int, heads: int, groups: List[Tuple[int, int, int]], strict: bool, rope: bool):
        super().__init__()
        self.qkv = torch.nn.Linear(d_model, 3 * d_model)  # fused q|k|v, as neural/model.cc
        self.out = torch.nn.Linear(d_model, d_model)
        self.heads = heads
        self.d_head = d_model // heads
        self.strict = strict
        self.rope = rope
        self.firsts = [g[0] for g in groups]
        self.counts = [g[1] for g in groups]
        self.windows = [g[2] for g in groups]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.size(0), x.size(1), x.size(2)
        t = self.qkv(x).view(b, n, 3, self.heads, self.d_head).permute(2, 0, 3, 1, 4)  # [3,B,H,N,dh]
        q, k, v = t[0], t[1], t[2]
        if self.rope:
            q = _rope(q)
            k = _rope(k)
        scores = torch.matmul(q * (1.0 / _math.sqrt(self.d_head)), k.transpose(-2, -1))  # [B,H,N,N]
        i = torch.arange(n, device=x.device).view(n, 1)
        j = torch.arange(n, device=x.device).view(1, n)
        parts: List[torch.Tensor] = []
        for g in range(len(self.firsts)):
            if self.counts[g] == 0:
                continue
            # visible(i, j) (docs/PROTOCOL.md "Models"): j < i (strict) or j <= i, and j >= i - k in a k-local head.
            visible = j < i if self.strict else j <= i
            if self.windows[g] > 0:
                visible = visible & (j >= i - self.windows[g])
            # -1e30: neural/model.cc's kMasked, a finite "minus infinity" (no NaN where nothing is visible).
            s = scores.narrow(1, self.firsts[g], self.counts[g]).masked_fill(visible.logical_not(), -1e30)
            o = torch.matmul(torch.softmax(s, -1), v.narrow(1, self.firsts[g], self.counts[g]))
            parts.append(o * visible.any(1).view(n, 1).to(o.dtype))  # a position that sees nothing: 0
        a = torch.cat(parts, 1)  # [B,H,N,dh]
        return self.out(a.transpose(1, 2).reshape(b, n, d))


class _Block(torch.nn.Module):
    def __init__(self, d_model: int, heads: int, d_ff: int, groups: List[Tuple[int, int, int]], strict: bool,
                 rope: bool, pre_ln: bool):
        super().__init__()
        self.attn = _Attention(d_model, heads, groups, strict, rope)
        self.ln1 = torch.nn.LayerNorm(d_model)
        self.ln2 = torch.nn.LayerNorm(d_model)
        self.ff1 = torch.nn.Linear(d_model, d_ff)
        self.ff2 = torch.nn.Linear(d_ff, d_model)
        self.pre_ln = pre_ln

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.pre_ln:
            h = x + self.attn(self.ln1(x))
            return h + self.ff2(torch.relu(self.ff1(self.ln2(h))))
        h = self.ln1(x + self.attn(x))
        return self.ln2(h + self.ff2(torch.relu(self.ff1(h))))


class Recognizer(torch.nn.Module):
    """A recognizer of neural/model.cc: forward(tokens [B, N] int64, eos [B] int64) -> logits [B].

    tokens hold symbol indices 0..|alphabet|-1 and EOS = |alphabet| at eos[b]; what follows a word's
    EOS is ignored (causal masks). A logit > 0 means "accepted"."""

    def __init__(self, config: dict, num_symbols: int, positions: int = 0, layout: Optional[list] = None):
        """layout: run.json's "layout" (the head groups per layer); derived from config when None."""
        super().__init__()
        arch = str(config["arch"])
        self.num_symbols = num_symbols
        self.is_lstm = arch == "lstm"
        d = int(config["d_model"])
        self.d_model = d
        self.pe = str(config.get("pe", "none"))
        self.pre_ln = bool(config.get("pre_ln", False))
        self.positions = positions  # rows of the learned table (0: none)
        self.embed = torch.nn.Embedding(num_symbols + 1, d)
        kind, _, k = arch.partition("-")
        layers = 0 if self.is_lstm else int(config["layers"])
        heads = int(config.get("heads", 1))
        if layout is None:
            groups = [head_groups(kind, int(k or 0), heads, layer, bool(config.get("hybrid_by_layer", False)))
                      for layer in range(layers)]
        else:
            groups = layout_groups(layout)
            if len(groups) != layers:
                raise ValueError(f"run.json's layout has {len(groups)} layers, the model {layers}")
        self.blocks = torch.nn.ModuleList([
            _Block(d, heads, int(config["d_ff"]), groups[layer], bool(config.get("strict", True)),
                   self.pe == "rope", self.pre_ln)
            for layer in range(layers)])
        hidden = int(config["lstm_hidden"]) if self.is_lstm else d
        # Modules a variant lacks are empty placeholders, so that TorchScript sees one type.
        self.pos = torch.nn.Embedding(positions, d) if self.pe == "learned" and not self.is_lstm else torch.nn.Identity()
        self.final_ln = torch.nn.LayerNorm(d) if self.pre_ln and not self.is_lstm else torch.nn.Identity()
        self.lstm = torch.nn.LSTM(d, hidden, batch_first=True) if self.is_lstm else torch.nn.Identity()
        self.readout = torch.nn.Linear(hidden, 1)

    def forward(self, tokens: torch.Tensor, eos: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        rows = torch.arange(tokens.size(0), device=tokens.device)
        if self.is_lstm:
            h = self._lstm(x)
            return self.readout(h[rows, eos]).squeeze(-1)
        n = tokens.size(1)
        if self.pe == "learned":
            if n > self.positions:
                raise ValueError("the input has more tokens than the learned positional table has rows")
            x = x + self._positions(torch.arange(n, device=tokens.device))
        elif self.pe == "sinusoidal":
            x = x + _sinusoidal(n, self.d_model, x.dtype, x.device).unsqueeze(0)
        for block in self.blocks:
            x = block(x)
        x = self._final(x)
        return self.readout(x[rows, eos]).squeeze(-1)

    # The optional parts (an Identity where the variant has none), each one call TorchScript types.
    def _lstm(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[0]

    def _positions(self, idx: torch.Tensor) -> torch.Tensor:
        return self.pos(idx)

    def _final(self, x: torch.Tensor) -> torch.Tensor:
        return self.final_ln(x)


def _cpp_name(name: str) -> str:
    """The Python parameter name as neural/model.cc names it: blocks.N.* -> blockN.*."""
    if name.startswith("blocks."):
        _, index, rest = name.split(".", 2)
        return f"block{index}.{rest}"
    return name


def _read_checkpoint(path: str):
    """The LibTorch archive inside RUNDIR/checkpoint.pt (docs/DURABILITY.md), its checksum verified."""
    with open(path, "rb") as f:
        data = f.read()
    nl = data.find(b"\n")
    if not data.startswith(_CHECKPOINT_MAGIC) or nl < 0 or nl > 512 or b" sha256=" not in data[:nl]:
        raise ValueError(f"{path}: not an ltlkit checkpoint (no 'ltlkit-checkpoint 1' header)")
    header = data[:nl]
    at = header.find(b" sha256=")
    prefix, want = header[:at], header[at + 8:].decode()
    archive = data[nl + 1:]
    if _hashlib.sha256(prefix + b"\n" + archive).hexdigest() != want:
        raise ValueError(f"{path}: checksum mismatch (a truncated or corrupted checkpoint)")
    return torch.jit.load(_io.BytesIO(archive), map_location="cpu")


class LoadedRecognizer:
    """A run's trained recognizer: call it on words to get their logits (> 0: accepted).

    alphabet: the run's symbols; config: the run's model settings (run.json); module: the
    Recognizer (a torch.nn.Module, evaluation mode, on the CPU)."""

    def __init__(self, module: Recognizer, alphabet: List[str], config: dict, run_dir: str):
        self.module = module
        self.alphabet = alphabet
        self.config = config
        self.run_dir = run_dir

    def encode(self, words: Sequence[Union[str, Sequence[Union[str, int]]]]) -> Tuple[torch.Tensor, torch.Tensor]:
        """tokens [B, N] and eos [B] for words: each a str (one character per symbol, or symbols
        separated by spaces, as on the command line) or a sequence of symbol names or indices."""
        index = {s: i for i, s in enumerate(self.alphabet)}
        rows = []
        for w in words:
            if isinstance(w, str):
                w = w.split() if " " in w else list(w)
            row = []
            for s in w:
                i = index.get(s) if isinstance(s, str) else int(s)
                if i is None or not 0 <= i < len(self.alphabet):
                    raise ValueError(f"symbol {s!r} is not in the run's alphabet {{{','.join(self.alphabet)}}}")
                row.append(i)
            rows.append(row)
        eos_index = len(self.alphabet)
        width = max((len(r) for r in rows), default=0) + 1
        tokens = torch.full((len(rows), width), eos_index, dtype=torch.long)
        for b, r in enumerate(rows):
            tokens[b, :len(r)] = torch.tensor(r, dtype=torch.long)
        return tokens, torch.tensor([len(r) for r in rows], dtype=torch.long)

    def __call__(self, words) -> torch.Tensor:
        """Logits [len(words)] (float32)."""
        tokens, eos = self.encode(list(words))
        with torch.no_grad():
            return self.module(tokens, eos)

    def accepts(self, words) -> List[bool]:
        return (self(words) > 0).tolist()

    def save_torchscript(self, path: str) -> str:
        """Writes the recognizer as TorchScript (forward(tokens, eos) -> logits, with `alphabet` as
        an attribute), atomically; torch.jit.load(path) opens it without ltlkit."""
        scripted = torch.jit.script(self.module)
        folder = _os.path.dirname(_os.path.abspath(path))
        fd, tmp = _tempfile.mkstemp(prefix=".ltlkit-", suffix=".pt", dir=folder)
        _os.close(fd)
        try:
            torch.jit.save(scripted, tmp, _extra_files={"ltlkit.json": _json.dumps(
                {"alphabet": self.alphabet, "eos": len(self.alphabet), "config": self.config})})
            _os.replace(tmp, path)
        except BaseException:
            _os.unlink(tmp)
            raise
        return path

    def __repr__(self):
        return f"<ltlkit.LoadedRecognizer {self.config.get('arch')} over {{{','.join(self.alphabet)}}} from {self.run_dir}>"


def load_recognizer(run_dir: str) -> LoadedRecognizer:
    """The trained recognizer of a run folder written by `ltlkit train` (run.json, checkpoint.pt)."""
    with open(_os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
        run = _json.load(f)
    alphabet = list(run["dfa"]["alphabet"])
    archive = _read_checkpoint(_os.path.join(run_dir, "checkpoint.pt"))
    config = _json.loads(archive.config)  # the checkpoint's own: the model it holds
    weights = {name: p.detach() for name, p in archive.model.named_parameters()}
    positions = weights["pos.weight"].size(0) if "pos.weight" in weights else 0
    # The head groups as the C++ model built them (run.json's "layout"; older folders lack it).
    module = Recognizer(config, len(alphabet), positions, run.get("layout"))
    state = {}
    for name in module.state_dict():
        cpp = _cpp_name(name)
        if cpp not in weights:
            raise ValueError(f"{run_dir}: the checkpoint has no parameter {cpp} (a model of another ltlkit version?)")
        state[name] = weights.pop(cpp)
    if weights:
        raise ValueError(f"{run_dir}: the checkpoint has parameters this reader does not know: {', '.join(sorted(weights))}")
    module.load_state_dict(state, strict=True)
    module.eval()
    return LoadedRecognizer(module, alphabet, config, run_dir)
