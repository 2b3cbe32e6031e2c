import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def daekit_binary():
    path = os.environ.get("DAEKIT_TEST_BINARY")
    if not path:
        pytest.fail("DAEKIT_TEST_BINARY is not set (run through ctest)")
    return path


@pytest.fixture(scope="session")
def run_cli(daekit_binary):
    def run(*args):
        return subprocess.run([daekit_binary, *args], capture_output=True, text=True)
    return run
