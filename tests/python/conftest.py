"""Shared helpers: the CLI the module is compared with (LTLKIT_CLI, set by ctest)."""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("LTLKIT_CLI", "ltlkit")
SOURCE_DIR = os.environ.get("LTLKIT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


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
