"""Chain verification in the background: the overview shows its latest result, and no
request ever waits for one.

``ChainWatch`` starts with the app (``console.app``'s lifespan) and verifies the store
(``AuditStore.verify``: the whole hash chain and every checkpoint; with the console's
public key, ``audit.store.heads.require_signed`` too) at once, then again whenever the
store's head has moved, at most once per ``verify_every``, and when asked (``/?verify=1``).
Until the first result the overview says "verifying…".

A verification reads and hashes every stored event (tens of seconds on a large store) in
pure Python: in a thread of the console it would hold the GIL and slow every page, so it
runs in a worker process of its own (``spawn``ed: a fresh interpreter, never a fork of the
threaded server), which opens the store itself. Tests may pass any
``concurrent.futures.Executor`` instead.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from datetime import datetime, timedelta
from multiprocessing.connection import Connection
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from audit.store import AfterSigned, AuditStore, ChainReport, Checkpoint, require_signed
from console.readmodel.signatures import SignatureStatus, signature_status

Verified = tuple[ChainReport, int, ChainReport | None, SignatureStatus | None, int]
"""What a verification gives: (the chain's report, the head it started at, the signatures'
report or None, their status in words or None, the checkpoints it saw)."""


@dataclass
class ChainStatus:
    """The last verification, when it finished and at which head: ``report`` is the hash
    chain and every checkpoint (``AuditStore.verify``); ``signed`` (with a public key) adds
    that every signature verifies and signatures cover every event
    (``audit.store.heads.require_signed``)."""

    report: ChainReport
    head: int
    checked_at: datetime
    signed: ChainReport | None
    signatures: SignatureStatus | None = None
    """``signed`` in plain words (``console.readmodel.signatures``), None without a public key."""
    checkpoints: int = 0
    """How many checkpoints the verification saw: a newer one makes this result stale."""


def verify_store(store_url: str, public_key: bytes | None) -> Verified:
    """Verify the store at ``store_url`` (in the worker: it opens the store itself);
    ``public_key`` is the raw Ed25519 key whose signatures the checkpoints must carry."""
    store = AuditStore(store_url)
    try:
        key = None if public_key is None else Ed25519PublicKey.from_public_bytes(public_key)
        report, checkpoints, head = store.verify_chain(key)
        signed = status = None
        if key is not None and report.ok:
            # one head for every count: the rows verified, the rows after the last signed
            # checkpoint and how many are trail (``audit.store.unsigned_tail``)
            tail = store.unsigned_tail(head)
            signed = require_signed(report, checkpoints, key, tail)
            last = max((c for c in checkpoints if c.signature), default=None, key=_position)
            after = tail(last.notification_id) if last else AfterSigned(0, 0)
            status = signature_status(checkpoints, key, after)
        return report, head, signed, status, len(checkpoints)
    finally:
        store.close()


def _position(checkpoint: Checkpoint) -> int:
    return checkpoint.notification_id


def _failed(error: Exception) -> ChainReport:
    """The report of a verification that could not run to the end."""
    problem = f"the verification could not read the store: {error!r}"[:300]
    return ChainReport(events_checked=0, head_hash=b"", checkpoints_checked=0, problem=problem)


def _answer(
    sender: Connection, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """In the worker: call ``fn`` and send back (True, result) or (False, exception)."""
    try:
        answer: tuple[bool, Any] = (True, fn(*args, **kwargs))
    except Exception as error:  # sent to the console, which reports it
        answer = (False, error)
    sender.send(answer)
    sender.close()


class WorkerProcess(Executor):
    """Each call in its own ``spawn``ed process, killed (not waited for) at ``shutdown``:
    a verification in progress when the console stops is simply dropped.

    Not ``multiprocessing.Pool``: its ``terminate`` closes the pool's pipes while its
    handler threads may still close them too, and a descriptor closed twice can be one
    SQLite has since opened (seen as "disk I/O error" in the console's next request).
    Here each pipe end is closed once, by the one thread that owns it.
    """

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._live: set[Any] = set()
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_answer, args=(sender, fn, args, kwargs), name="chain-verify", daemon=True
        )
        with self._lock:
            if self._closed:
                receiver.close()
                sender.close()
                raise RuntimeError("the verification worker is shut down")
            process.start()
            self._live.add(process)
        sender.close()
        collect = threading.Thread(
            target=self._collect, args=(process, receiver, future), daemon=True
        )
        collect.start()
        return future

    def _collect(self, process: Any, receiver: Connection, future: Future[Any]) -> None:
        try:
            ok, value = receiver.recv()
        except (EOFError, OSError):
            future.set_exception(RuntimeError("the verification process ended without answer"))
        else:
            (future.set_result if ok else future.set_exception)(value)
        finally:
            receiver.close()
            process.join()
            with self._lock:
                self._live.discard(process)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            live = list(self._live)
        for process in live:
            process.kill()


class ChainWatch:
    """The background verification (see the module docstring). ``latest`` is the last
    result (None until the first); ``ask`` asks for a new one now."""

    def __init__(
        self,
        store_url: str,
        head: Callable[[], int],
        *,
        public_key: Ed25519PublicKey | None,
        every: timedelta,
        clock: Callable[[], datetime],
        executor: Executor | None = None,
    ):
        self._url = store_url
        self._key = public_key.public_bytes(Encoding.Raw, PublicFormat.Raw) if public_key else None
        self._head = head
        self._every = every
        self._clock = clock
        self._executor = executor
        self._latest: ChainStatus | None = None
        self._running = False
        self._asked = threading.Event()
        self._stopping = threading.Event()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    @property
    def latest(self) -> ChainStatus | None:
        return self._latest

    @property
    def running(self) -> bool:
        """Whether a verification is in progress."""
        return self._running

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="chain-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._asked.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def ask(self) -> None:
        """Verify again as soon as the running verification (if any) is done."""
        self._asked.set()

    def settled(self, timeout: float) -> ChainStatus | None:
        """Wait (at most ``timeout`` seconds) until no verification is asked for or
        running and the latest one started at the store's current head; the latest."""
        with self._changed:
            self._changed.wait_for(
                lambda: (
                    not self._asked.is_set()
                    and not self._running
                    and self._latest is not None
                    and self._latest.head >= self._head()
                ),
                timeout,
            )
            return self._latest

    def _due(self) -> bool:
        latest = self._latest
        if latest is None or self._asked.is_set():
            return True
        return self._clock() - latest.checked_at >= self._every and self._head() != latest.head

    def _run(self) -> None:
        executor = self._executor or WorkerProcess()
        try:
            while not self._stopping.is_set():
                if self._due():
                    self._verify(executor)
                self._asked.wait(timeout=min(self._every.total_seconds(), 5.0))
        finally:
            if self._executor is None:
                executor.shutdown()

    def _verify(self, executor: Executor) -> None:
        with self._changed:
            self._asked.clear()
            self._running = True
        try:
            future = executor.submit(verify_store, self._url, self._key)
            while not future.done():
                if self._stopping.wait(timeout=0.2):
                    return
            try:
                report, head, signed, status, checkpoints = future.result()
            except Exception as error:  # the store could not be read: say so on the page
                report, head, signed, status, checkpoints = _failed(error), 0, None, None, 0
            with self._changed:
                self._latest = ChainStatus(report, head, self._clock(), signed, status, checkpoints)
        finally:
            with self._changed:
                self._running = False
                self._changed.notify_all()
