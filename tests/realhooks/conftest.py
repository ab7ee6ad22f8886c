"""The real hooks' packages, installed once a session, and the end-to-end suite's fixtures (the
hosts' real CLIs against a fake model) for their runs under those CLIs."""

import pytest

from tests.e2e.conftest import host_bins, hosts, isolation
from tests.realhooks.corpus import install

__all__ = ["host_bins", "hosts", "installed", "isolation"]


@pytest.fixture(scope="session")
def installed() -> dict[str, dict[str, str]]:
    """{package: {"root", "bin"}} of every corpus package; skips when they cannot be had."""
    return install()
