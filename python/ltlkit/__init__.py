"""ltlkit: which attention architecture can recognize this regular language?

The symbolic core of ltlkit from Python, with the names of the C++ API:

    >>> import ltlkit
    >>> f = ltlkit.parse_formula("P(b & Y a)")
    >>> dfa = ltlkit.compile(f)              # minimal DFA
    >>> dfa.accepts("aab"), dfa.num_states
    >>> c = ltlkit.classify(f)               # classes, predictions, certificates (dicts)
    >>> ltlkit.check_certificate(c["certificates"]["definite"])
    >>> ds = ltlkit.generate_dataset(f, "data/pb", train="1:10", test="11:20", per_length=8)
    >>> ds["train"].words, ds["train"].lengths, ds["train"].labels   # numpy int64 arrays

Errors raise ltlkit.Error subclasses (InputError is a ValueError, LimitError a RuntimeError,
IOError an OSError) whose str() is the CLI's message and whose exit_code is the CLI's exit code.
See docs/PYTHON.md.
"""

import shutil as _shutil
import subprocess as _subprocess

from . import _ltlkit
from ._ltlkit import (  # noqa: F401  (the public names)
    Dfa, Error, Formula, InputError, IOError, LimitError, Op, Sampler, accepts, atoms, canonical, ceiling,
    check_certificate, classify, classify_subregular, compile, compile_regex, complement, dag_size, distinguishing_word,
    empirical_ceiling, formula_alphabet, fragment_of, holds_at_eos, is_minimal, minimize, parse_formula, prediction_strata,
    read_dfa_file, subformulas_postorder, suite, sweep_languages, sweep_report, temporal_depth, to_string, to_unicode,
    tree_size)

# The project's version (CMake's project(VERSION), compiled into the extension).
__version__ = _ltlkit.__version__

# The public names. `from ltlkit import *` leaves out compile and IOError, which would shadow
# Python's builtins; they are public all the same (ltlkit.compile, ltlkit.IOError).
__all__ = [
    "Dataset", "Dfa", "Error", "Formula", "InputError", "LimitError", "Op", "Sampler", "Split",
    "accepts", "atoms", "canonical", "ceiling", "check_certificate", "classify", "classify_subregular", "compile_regex",
    "complement", "dag_size", "distinguishing_word", "empirical_ceiling", "equiv", "formula_alphabet",
    "fragment_of", "generate_dataset", "holds_at_eos", "is_minimal", "load_recognizer", "minimize",
    "parse_formula", "prediction_strata", "read_dataset", "read_dfa_file", "subformulas_postorder", "suite",
    "sweep_languages", "sweep_report", "temporal_depth", "to_string", "to_unicode", "tree_size",
]


def equiv(a, b, alphabet=None, max_states=1_000_000):
    """True when the two languages (Formula, formula text or Dfa) are equal; see distinguishing_word."""
    return distinguishing_word(a, b, alphabet=alphabet, max_states=max_states) is None


def _dfa_svg(self):
    """SVG of to_dot() through Graphviz `dot` (for notebooks); None when dot is not installed."""
    dot = _shutil.which("dot")
    if dot is None:
        return None
    out = _subprocess.run([dot, "-Tsvg"], input=self.to_dot().encode(), capture_output=True, check=False)
    return out.stdout.decode() if out.returncode == 0 else None


def _dfa_to_dict(self):
    """The DFA JSON of docs/SYNTAX.md §9 as a dict."""
    return {"alphabet": list(self.alphabet), "initial": self.initial,
            "accepting": self.accepting, "transitions": self.transitions}


Dfa._repr_svg_ = _dfa_svg
Dfa.to_dict = _dfa_to_dict


class Split:
    """One split of a dataset as compact numpy arrays, usable directly as a map-style PyTorch dataset.

    symbols: the symbol indices of every word one after another (uint8 for up to 256 symbols),
    offsets: int64 [N + 1] (word i is symbols[offsets[i]:offsets[i + 1]]), lengths: int64 [N],
    labels: int64 [N] (1 accepted, 0 rejected), pairs: int64 [N] (pair id in boundary and
    adversarial splits, -1 elsewhere). ds[i] is (word i padded with `pad` to `width`, its length,
    its label); word(i) is the word unpadded; padded() (also the property `words`) builds the
    int64 [N, width] array, 8 bytes per cell: for small splits (docs/PYTHON.md).
    """

    def __init__(self, d, pad):
        self.name = d["name"]
        self.symbols = d["symbols"]
        self.offsets = d["offsets"]
        self.lengths = d["lengths"]
        self.labels = d["labels"]
        self.pairs = d["pairs"]
        self.pad = pad
        self.width = int(self.lengths.max()) if len(self.lengths) else 0

    def __len__(self):
        return len(self.labels)

    def word(self, i):
        """Word i (symbol indices, int64), unpadded."""
        import numpy as _np

        return self.symbols[self.offsets[i]:self.offsets[i + 1]].astype(_np.int64)

    def __getitem__(self, i):
        import numpy as _np

        row = _np.full(self.width, self.pad, dtype=_np.int64)
        n = int(self.lengths[i])
        row[:n] = self.symbols[self.offsets[i]:self.offsets[i] + n]
        return row, self.lengths[i], self.labels[i]

    def padded(self):
        """The words as one int64 [N, width] array padded with `pad` (built anew on each call:
        N * width * 8 bytes, e.g. 942 MB for the default test split of `ltlkit generate`)."""
        import numpy as _np

        out = _np.full((len(self), self.width), self.pad, dtype=_np.int64)
        out[_np.arange(self.width)[None, :] < self.lengths[:, None]] = self.symbols
        return out

    @property
    def words(self):
        """padded(), as the attribute that held it before the split was compact."""
        return self.padded()

    def __repr__(self):
        return f"<ltlkit.Split {self.name}: {len(self)} words, width {self.width}>"


class Dataset:
    """A dataset of `ltlkit generate` read back: alphabet, dfa, meta (meta.json as a dict), and its
    splits by name (ds["train"], ds["validation"], ds["test"], ds["boundary"], ...)."""

    def __init__(self, d):
        self.alphabet = d["alphabet"]
        self.dfa = d["dfa"]
        self.meta = d["meta"]
        self.pad = d["pad"]
        self.splits = {name: Split(s, self.pad) for name, s in d["splits"].items()}

    def __getitem__(self, name):
        return self.splits[name]

    def __contains__(self, name):
        return name in self.splits

    def __repr__(self):
        return "<ltlkit.Dataset " + ", ".join(f"{n}: {len(s)}" for n, s in self.splits.items()) + ">"


def generate_dataset(language, dir, train="1:40", test="41:500", per_length=512, boundary_per_length=16,
                     seed=1, format="tsv", force=False, max_table_cells=0, pad=None, alphabet=None):
    """Generates the balanced, uniformly sampled dataset of `ltlkit generate --no-adversarial` into
    `dir` (same files and bytes for the same arguments) and returns it as a Dataset of numpy arrays.
    Words are padded with `pad` (default: len(alphabet), the EOS index of ltlkit's recognizers).
    Ctrl-C interrupts it (KeyboardInterrupt); a rerun with the same arguments starts over."""
    return Dataset(_ltlkit.generate_dataset(language, dir, train=train, test=test, per_length=per_length,
                                            boundary_per_length=boundary_per_length, seed=seed, format=format,
                                            force=force, max_table_cells=max_table_cells, pad=pad,
                                            alphabet=alphabet))


def read_dataset(dir, check_labels=True, pad=None):
    """Reads a dataset folder written by `ltlkit generate` (any format), checksums verified."""
    return Dataset(_ltlkit.read_dataset(dir, check_labels=check_labels, pad=pad))


def load_recognizer(run_dir):
    """The trained recognizer of a run folder of `ltlkit train`, as a callable that maps words to
    their logits (> 0: accepted); .save_torchscript(path) exports it for torch.jit.load. Needs
    torch (Debian's python3-torch); see ltlkit.recognizer and docs/PYTHON.md."""
    from .recognizer import load_recognizer as load  # torch is imported only when asked for

    return load(run_dir)
