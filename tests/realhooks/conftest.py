"""The end-to-end suite's fixtures (the hosts' real CLIs against a fake model), for the real
hooks' runs under those CLIs."""

from tests.e2e.conftest import host_bins, hosts, isolation

__all__ = ["host_bins", "hosts", "isolation"]
