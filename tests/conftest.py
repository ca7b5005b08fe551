"""Shared fixtures: store URLs for both backends, and the public hand histories (the
vendored sample everywhere, the full set where ``../shared/data/phh`` has it)."""

from __future__ import annotations

import os
import tarfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

SHARED = Path(os.environ.get("CASINO_AUDIT_SHARED", Path(__file__).resolve().parents[2] / "shared"))
PHH_ARCHIVES = SHARED / "data" / "phh"
PHH_SAMPLE = Path(__file__).resolve().parent / "data" / "phh"
"""66 real PHH hands, MIT (``tests/data/phh/LICENSE``): what must run on any clone."""
PG_ENV = "CASINO_AUDIT_TEST_PG_URL"


def postgres_base_url() -> str:
    """The throwaway server's URL; in CI its absence is an error, locally a skip."""
    url = os.environ.get(PG_ENV)
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"{PG_ENV} is not set: run the suite through .ci/with-postgres")
    pytest.skip(f"{PG_ENV} not set (run through .ci/with-postgres)")


def fresh_postgres_url() -> str:
    """A new, empty PostgreSQL schema on the test server, as a store URL."""
    base = postgres_base_url()
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{base}?schema={schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty store on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    return fresh_postgres_url()


@pytest.fixture(scope="session")
def phh_sample() -> Path:
    """The vendored sample of real hands (``tests/data/phh``, the archives' layout:
    ``pluribus/83/63.phh``, ``wsop/2023/43/5/11.phh``), present on every clone."""
    return PHH_SAMPLE


@pytest.fixture(scope="session")
def phh_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three public PHH archives (all 10,088 hands), unpacked once per test session;
    for the tests that count or sweep every hand. Skipped, with the reason in the
    summary, where the archives are absent (a clone outside the project tree)."""
    if not PHH_ARCHIVES.exists():
        pytest.skip(
            f"the full PHH set is not at {PHH_ARCHIVES} (set CASINO_AUDIT_SHARED): only "
            "the tests of every hand need it; the vendored sample runs the rest"
        )
    root = tmp_path_factory.mktemp("phh")
    for archive in sorted(PHH_ARCHIVES.glob("*.tar.gz")):
        with tarfile.open(archive) as tar:
            tar.extractall(root, filter="data")
    return root


@pytest.fixture
def store(store_url: str) -> Iterator[object]:
    from audit.store import AuditStore

    app = AuditStore(store_url)
    yield app
    app.close()
