#!/usr/bin/env bash
# `pip install .` as a user runs it (docs/PYTHON.md "Installing with pip"): the tracked source tree
# copied to a scratch folder, a fresh virtual environment with Debian's numpy and torch, the
# package built offline by setuptools + CMake, then imported from outside the source and called.
#   bash pip_install.sh SOURCE_DIR PYTHON [BUILD_DIR]   (in a scratch folder)
# With BUILD_DIR the extension is taken from that configured build (LTLKIT_CMAKE_BUILD_DIR, seconds);
# without, setuptools configures and builds it from scratch (minutes; the test labelled long).
set -euo pipefail
src=$(cd "$1" && pwd); python=${2:-/usr/bin/python3}
if [ -n "${3:-}" ]; then export LTLKIT_CMAKE_BUILD_DIR; LTLKIT_CMAKE_BUILD_DIR=$(cd "$3" && pwd); fi
work=$(pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
# A Python without setuptools, wheel and numpy (this one without its site packages, as a pyenv
# python3 first on PATH is) is refused by setup.py first, in one line naming Debian's Python
# (docs/PYTHON.md), not later with "invalid command 'bdist_wheel'".
if msg=$("$python" -S "$src/setup.py" --version 2>&1); then fail "setup.py ran under $python -S: $msg"; fi
[[ $msg == "ltlkit: error: "*" has no "*"/usr/bin/python3"* && $(wc -l <<< "$msg") == 1 ]] || fail "setup.py's check said: $msg"
rm -rf source venv
mkdir source
if git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
  # Tracked files and new ones not ignored: what a clone of this tree would hold.
  (cd "$src" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2> /dev/null) |
    tar -xf - -C source
else
  (cd "$src" && tar --exclude='./build*' -cf - .) | tar -xf - -C source
fi
"$python" -m venv --system-site-packages venv
(cd source && CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
   "$work/venv/bin/pip" install --no-build-isolation --no-index . > "$work/pip.log" 2>&1) ||
  { tail -40 pip.log; fail "pip install"; }
cd "$work"
venv/bin/python - "$src" << 'PY' || fail "the installed module"
import importlib.metadata, os, re, sys
import ltlkit
src = sys.argv[1]
assert "site-packages" in ltlkit.__file__, ltlkit.__file__  # the installed copy, not a source tree
with open(os.path.join(src, "CMakeLists.txt")) as f:
    version = re.search(r"project\(ltlkit VERSION ([0-9.]+)", f.read()).group(1)
assert ltlkit.__version__ == version == importlib.metadata.version("ltlkit"), (ltlkit.__version__, version)
here = os.path.dirname(ltlkit.__file__)
assert os.path.exists(os.path.join(here, "py.typed")) and os.path.exists(os.path.join(here, "__init__.pyi"))
c = ltlkit.classify("P(b & Y a)")
assert c["predictions"]["local-1"] == "fails" and c["alphabet_inferred"] is True, c["predictions"]
try:
    ltlkit.classify("Y a")
    raise SystemExit("classify('Y a') was not refused")
except ltlkit.InputError as e:
    assert 'alphabet="a,b"' in str(e), str(e)
import numpy  # from Debian, through --system-site-packages
print("installed", ltlkit.__version__, "at", here)
PY
