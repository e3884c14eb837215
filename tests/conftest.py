"""Test-wide settings: Hypothesis profiles sized for CI (2 cores, a few minutes in all)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.postgres_cluster import REQUIRE, Cluster, throwaway_cluster, why_not

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("deep", parent=settings.get_profile("ci"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole session (tests/postgres_cluster.py).

    Skipped, with one line saying why, when PostgreSQL or psycopg is not installed; a failure
    instead when $WARLOG_REQUIRE_POSTGRES is set (CI sets it: there the tests must run)."""
    reason = why_not()
    if reason is not None:
        if os.environ.get(REQUIRE):
            pytest.fail(f"{REQUIRE} is set but {reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    with throwaway_cluster() as cluster:
        yield cluster


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, under which a file made by ``: > FILE`` is readable by everyone."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)
