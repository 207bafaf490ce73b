"""Shared helpers: the CLI the module is compared with (LTLKIT_CLI, set by ctest)."""
import json
import os
import re
import subprocess
import sys

import pytest

# ctest passes the module's folder, the CLI and the source tree relative to the test's working
# folder (tests/python/CMakeLists.txt): made absolute here, before any test changes folder, in
# sys.path and in the environment that subprocesses inherit.
sys.path[:] = [os.path.abspath(p) if p else p for p in sys.path]
if os.environ.get("PYTHONPATH"):
    os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in os.environ["PYTHONPATH"].split(os.pathsep) if p)
if os.sep in os.environ.get("LTLKIT_CLI", ""):
    os.environ["LTLKIT_CLI"] = os.path.abspath(os.environ["LTLKIT_CLI"])
CLI = os.environ.get("LTLKIT_CLI", "ltlkit")
SOURCE_DIR = os.path.abspath(os.environ.get("LTLKIT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))


def run_cli(*args, check=True):
    """Runs `ltlkit ARGS`; returns the CompletedProcess (text mode)."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    if check and p.returncode != 0:
        raise AssertionError(f"ltlkit {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def cli_json(*args):
    return json.loads(run_cli(*args).stdout)


@pytest.fixture
def cli():
    return run_cli


# The CLI's options as the module's keyword arguments, as the module words its error messages
# (docs/PYTHON.md "Errors"): "--max-states 5" -> "max_states=5", "--force" -> "force=True",
# "--alphabet a,b" -> 'alphabet="a,b"'.
KEYWORDS = ["max-states", "max-table-cells", "formula-cap", "window-time", "window-memory", "max-elements", "max-k",
            "per-length"]


def python_words(message):
    for flag in KEYWORDS:
        keyword = flag.replace("-", "_")
        message = re.sub(rf"--{flag} ([0-9][0-9.]*)", rf"{keyword}=\1", message)
        message = re.sub(rf"--{flag}\b", f"{keyword}=", message)
    message = re.sub(r"--alphabet ([A-Za-z0-9_,]+)(?=\)|,|;| to\b|$)", r'alphabet="\1"', message)
    message = re.sub(r"--alphabet\b", "alphabet=", message)
    message = re.sub(r"--force\b", "force=True", message)
    return re.sub(r"\bltlkit generate\b", "ltlkit.generate_dataset", message)


def same_outcome(call, *cli_args, ok=(0,)):
    """Runs the module's call and `ltlkit CLI_ARGS`. Either both succeed (the CLI with an exit code
    in `ok`): returns (the call's result, the CLI's CompletedProcess); or both fail with the same
    exit code and the same message, the module's naming keyword arguments where the CLI names
    options: returns (None, the CompletedProcess)."""
    p = run_cli(*cli_args, check=False)
    try:
        got = call()
    except Exception as e:  # noqa: BLE001  (compared below)
        import ltlkit
        assert isinstance(e, ltlkit.Error), f"{e!r} is not an ltlkit.Error"
        assert p.returncode not in ok, f"the module raised {e!r} where `ltlkit {' '.join(cli_args)}` succeeded"
        assert e.exit_code == p.returncode
        prefix = "ltlkit: error: "
        assert p.stderr.startswith(prefix), p.stderr
        assert str(e) == python_words(p.stderr.splitlines()[0][len(prefix):])
        assert not re.search(r"--[a-z]", str(e)), f"the message names a CLI option: {e}"
        return None, p
    assert p.returncode in ok, f"`ltlkit {' '.join(cli_args)}` failed ({p.stderr.strip()}) where the module answered {got!r}"
    return got, p
