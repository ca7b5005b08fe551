"""A distributed Airflow of a test's own: a Redis broker, the CeleryExecutor, workers.

``celery_airflow(work)`` starts, all on 127.0.0.1 and free ports: Debian's
``redis-server`` (as the ``redis`` user when we are root, its files under ``work``);
a fresh Airflow metadata database on the ``.ci/with-postgres`` server, migrated, with
the ``casino_audit_store`` pool set and our DAGs serialized and unpaused; then the
api-server, the scheduler, the dag-processor and ``WORKERS`` Celery workers, and waits
until the API answers and every worker answers a ping. Leaving the ``with`` block stops
every process it started (each in a session of its own: SIGTERM to its group, SIGKILL
after a grace period) and drops the database, whatever happened.

The commands are those of "Deploying the nightly on Airflow" (``docs/deployment.md``);
only the schedule is off, so that nothing but the test's triggered run executes. Without
``redis-server`` the test is skipped (a failure in CI: ``make test`` installs it).
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
import pytest
import redis
from celery import Celery

from pipelines.nightly.chunks import STORE_POOL, STORE_POOL_SLOTS
from tests.airflow_harness import AIRFLOW, airflow_env, migrate
from tests.conftest import postgres_base_url
from tests.pg_server import free_port

DAG_ID = "nightly_reconciliation"
WORKERS = ("worker1", "worker2")
WORKER_CONCURRENCY = 1
REDIS_USER = "redis"
#: How long starting a service or a run may take before the test gives up.
DEADLINE = 900.0
POLL_SECONDS = 1.0
STOP_GRACE = 30.0
_WORKLOAD = re.compile(r"Executing workload in Celery: .*?task_id='([^']+)'.*?map_index=(-?\d+)")


def redis_binary() -> str:
    """Debian's ``redis-server``; a skip (locally) or a failure (in CI) without it."""
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    if found:
        return found
    message = "redis-server not found (Debian's redis-server package)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; `make test` installs it: CI must run the Celery test")
    pytest.skip(message)


def _as_user(user: str) -> list[str]:
    """The prefix running a command as ``user`` when we are root (made if missing)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam(user)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", user], check=True)
    return ["runuser", "-u", user, "--"]


@dataclass
class Services:
    """Long-running processes, each in a session of its own, logging to ``logs/NAME.log``."""

    logs: Path
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> None:
        """Start ``argv`` as the service ``name``."""
        with (self.logs / f"{name}.log").open("wb") as log:
            self.running[name] = subprocess.Popen(
                argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def log(self, name: str) -> str:
        """What the service ``name`` has written so far."""
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def check_alive(self) -> None:
        """Fail, with its log, if a service has exited."""
        for name, process in self.running.items():
            assert process.poll() is None, (
                f"{name} exited ({process.returncode}):\n{self.log(name)[-5000:]}"
            )

    def stop(self) -> None:
        """SIGTERM every service's process group, SIGKILL what is left after the grace."""
        for process in self.running.values():
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE
        for process in self.running.values():
            with suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            _signal_group(process, signal.SIGKILL)  # its children too (task processes)
            process.wait(timeout=STOP_GRACE)


def _signal_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def airflow(env: dict[str, str], *args: str) -> None:
    """Run an ``airflow`` command to its end (fails with its output on an error)."""
    done = subprocess.run(
        [str(AIRFLOW), *args], env=env, capture_output=True, text=True, timeout=DEADLINE
    )
    assert done.returncode == 0, f"airflow {' '.join(args)}:\n{done.stdout}\n{done.stderr}"


def wait_until(what: str, ready: Callable[[], bool], services: Services) -> None:
    """Poll ``ready()`` until it is true; fail after ``DEADLINE`` or if a service died."""
    deadline = time.monotonic() + DEADLINE
    while not ready():
        services.check_alive()
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(POLL_SECONDS)


@dataclass
class Cluster:
    """A running distributed Airflow: its environment, metadata database and services."""

    env: dict[str, str]
    metadata: str
    """The metadata database, as a psycopg connection URL."""
    services: Services

    def trigger(self, run_id: str, conf: str) -> None:
        """``airflow dags trigger`` our nightly with that run id and ``--conf`` JSON."""
        airflow(self.env, "dags", "trigger", DAG_ID, "--run-id", run_id, "--conf", conf)

    def run_state(self, run_id: str) -> str | None:
        """The run's state in the metadata database (None before it exists)."""
        with psycopg.connect(self.metadata, autocommit=True) as db:
            row = db.execute(
                "SELECT state FROM dag_run WHERE dag_id = %s AND run_id = %s", (DAG_ID, run_id)
            ).fetchone()
        return None if row is None else str(row[0])

    def wait_for_run(self, run_id: str) -> str:
        """Wait until the run has ended; its final state."""
        wait_until(
            f"run {run_id}", lambda: self.run_state(run_id) in {"success", "failed"}, self.services
        )
        return str(self.run_state(run_id))

    def task_instances(self, run_id: str) -> dict[tuple[str, int], tuple[str, str]]:
        """The run's task instances: (task_id, map_index) to (state, pool)."""
        with psycopg.connect(self.metadata, autocommit=True) as db:
            rows = db.execute(
                "SELECT task_id, map_index, state, pool FROM task_instance "
                "WHERE dag_id = %s AND run_id = %s",
                (DAG_ID, run_id),
            ).fetchall()
        return {(task, int(index)): (str(state), str(pool)) for task, index, state, pool in rows}

    def workloads(self) -> dict[str, set[tuple[str, int]]]:
        """What each worker executed, from its log: worker to {(task_id, map_index)}."""
        found = {worker: _WORKLOAD.findall(self.services.log(worker)) for worker in WORKERS}
        return {worker: {(task, int(i)) for task, i in done} for worker, done in found.items()}


@contextmanager
def _redis_folder() -> Iterator[Path]:
    """A folder of Redis's own under /tmp (its user may not enter the test's), removed
    afterwards."""
    data = Path(tempfile.mkdtemp(prefix="casino-audit-redis-"))
    try:
        data.chmod(0o755)
        if _as_user(REDIS_USER):
            shutil.chown(data, REDIS_USER)
        yield data
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _redis(services: Services, data: Path) -> str:
    """Start a Redis of our own in ``data`` (no persistence); its URL once it answers."""
    binary = redis_binary()
    prefix = _as_user(REDIS_USER)
    port = free_port()
    services.start(
        "redis",
        [
            *prefix,
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(data),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
        ],
    )
    url = f"redis://127.0.0.1:{port}/0"
    wait_until("redis", lambda: _redis_answers(url), services)
    return url


def _redis_answers(url: str) -> bool:
    try:
        with redis.Redis.from_url(url, socket_timeout=5) as client:
            return bool(client.ping())
    except redis.ConnectionError:  # not listening yet
        return False


@contextmanager
def metadata_database() -> Iterator[str]:
    """A fresh database on the test server for Airflow's metadata, dropped afterwards;
    its name."""
    base = postgres_base_url()
    name = f"airflow_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    try:
        yield name
    finally:
        with psycopg.connect(base, autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def metadata_sqlalchemy(name: str) -> tuple[str, str]:
    """(SQLAlchemy URL, psycopg URL) of the metadata database ``name`` on the test server."""
    server = postgres_base_url().rsplit("/", 1)[0]
    sqlalchemy = server.replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{sqlalchemy}/{name}", f"{server}/{name}"


def served_env(home: Path, metadata: str, api_port: int) -> dict[str, str]:
    """What every process of an Airflow with an api-server on ``127.0.0.1:api_port``
    shares, whatever its executor (``metadata``: a SQLAlchemy URL): the api-server bound
    to loopback, the tasks' Execution API pointed at it, secrets of its own."""
    return airflow_env(home) | {
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": metadata,
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_ASYNC": metadata,
        "AIRFLOW__API__HOST": "127.0.0.1",
        "AIRFLOW__API__PORT": str(api_port),
        "AIRFLOW__API__BASE_URL": f"http://127.0.0.1:{api_port}/",
        "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://127.0.0.1:{api_port}/execution/",
        "AIRFLOW__API_AUTH__JWT_SECRET": secrets.token_hex(32),
        "AIRFLOW__API__SECRET_KEY": secrets.token_hex(32),
        "AIRFLOW__LOGGING__LOGGING_LEVEL": "INFO",
    }


def cluster_env(home: Path, metadata: str, broker: str, api_port: int) -> dict[str, str]:
    """The environment every Airflow process of the Celery cluster shares."""
    return served_env(home, metadata, api_port) | {
        "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
        "AIRFLOW__CELERY__BROKER_URL": broker,
        "AIRFLOW__CELERY__RESULT_BACKEND": f"db+{metadata}",
        "AIRFLOW__CELERY__WORKER_CONCURRENCY": str(WORKER_CONCURRENCY),
        "AIRFLOW__SCHEDULER__USE_JOB_SCHEDULE": "False",
    }


def api_healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/v2/monitor/health", timeout=5).is_success
    except httpx.HTTPError:
        return False


def _workers_answer(broker: str) -> bool:
    app = Celery(broker=broker)
    try:
        replies = app.control.ping(timeout=2.0)
    finally:
        app.close()
    names = {name.split("@")[0] for reply in replies for name in reply}
    return names >= set(WORKERS)


@contextmanager
def celery_airflow(work: Path) -> Iterator[Cluster]:
    """The whole cluster under ``work`` (see the module docstring), stopped afterwards."""
    logs = work / "logs"
    logs.mkdir(parents=True)
    services = Services(logs)
    with ExitStack() as stack:
        name = stack.enter_context(metadata_database())
        redis_folder = stack.enter_context(_redis_folder())
        stack.callback(services.stop)  # first, before its folder and database go
        broker = _redis(services, redis_folder)
        api_port = free_port()
        sqlalchemy, metadata = metadata_sqlalchemy(name)
        env = cluster_env(work / "airflow-home", sqlalchemy, broker, api_port)
        migrate(env)
        airflow(env, "pools", "set", STORE_POOL, str(STORE_POOL_SLOTS), "casino-audit store")
        airflow(env, "dags", "reserialize")
        airflow(env, "dags", "unpause", DAG_ID)
        services.start("api-server", [str(AIRFLOW), "api-server"], env)
        services.start("scheduler", [str(AIRFLOW), "scheduler"], env)
        services.start("dag-processor", [str(AIRFLOW), "dag-processor"], env)
        for worker in WORKERS:
            services.start(
                worker,
                [
                    str(AIRFLOW),
                    "celery",
                    "worker",
                    "--celery-hostname",
                    f"{worker}@%h",
                    "--skip-serve-logs",
                    "--pid",
                    str(work / f"{worker}.pid"),
                ],
                env,
            )
        wait_until("the api-server", lambda: api_healthy(api_port), services)
        wait_until("the Celery workers", lambda: _workers_answer(broker), services)
        yield Cluster(env, metadata, services)
