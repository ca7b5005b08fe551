"""Stores that cannot be used fail cleanly: a message, exit 2, no traceback, no password.

Corrupt SQLite files, FIFOs and directories as the store, bad ports, reserved schemas, a
role that may not create the schema it is given; a key never overwritten; and, over
URLs of any shape (hypothesis), no message ever shows the URL's password.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.config import StoreURLError, parse_store_url
from audit.store import AuditStore
from audit.store.existing import StoreMissing, StoreUnusable
from cli.main import main
from tests.conftest import postgres_base_url

READS = [["verify"], ["findings"], ["quarantine"], ["show", "h/1"]]
WRITES = [["checkpoint"], ["replay"], ["db", "init"]]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def assert_clean(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err, err


# -- SQLite: what the store path points at ----------------------------------------------


@pytest.mark.parametrize("name", ["hands.txt", "hands.phh", "day.avro"])
def test_a_fifo_named_as_ingest_input_is_quarantined_without_hanging(
    tmp_path: Path, name: str
) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    store = f"sqlite:///{tmp_path / 's.db'}"
    done = subprocess.run(  # in a child: opening the FIFO would block for ever
        [sys.executable, "-m", "cli", "--store", store, "ingest", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"{name}, file, field (file): not a regular file (a FIFO" in done.stdout
    assert "records quarantined:   1" in done.stdout


@pytest.mark.parametrize("command", READS + WRITES + [["ingest", "."]])
def test_a_corrupt_sqlite_file_is_refused(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "store.db"
    junk = os.urandom(8192)
    path.write_bytes(junk)
    code, _, err = run("--store", f"sqlite:///{path}", *command)
    assert_clean(code, err, "not a SQLite database")
    assert path.read_bytes() == junk  # not touched


def test_a_sqlite_file_damaged_past_its_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    AuditStore(f"sqlite:///{path}").close()
    data = bytearray(path.read_bytes())
    data[16:] = os.urandom(len(data) - 16)
    path.write_bytes(bytes(data))
    for command in (["verify"], ["checkpoint"]):
        code, _, err = run("--store", f"sqlite:///{path}", *command)
        assert_clean(code, err, "sqlite:///")


@pytest.mark.parametrize("command", [["verify"], ["checkpoint"], ["db", "init"]])
def test_a_fifo_as_the_store_is_refused_without_hanging(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "store.db"
    os.mkfifo(fifo)
    done = subprocess.run(  # in a child: a regression would block on the FIFO for ever
        [sys.executable, "-m", "cli", "--store", f"sqlite:///{fifo}", *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert_clean(done.returncode, done.stderr, "FIFO")


@pytest.mark.parametrize("command", READS + WRITES + [["ingest", "."]])
def test_a_directory_as_the_store_is_refused(tmp_path: Path, command: list[str]) -> None:
    folder = tmp_path / "store.db"
    folder.mkdir()
    code, _, err = run("--store", f"sqlite:///{folder}", *command)
    assert_clean(code, err, "is a directory")


def test_a_store_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    code, _, err = run("--store", f"sqlite:///{tmp_path / 'no' / 'x.db'}", "checkpoint")
    assert_clean(code, err, "does not exist")
    assert not (tmp_path / "no").exists()


def test_an_empty_file_is_no_store_for_a_reader(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    path.touch()
    code, _, err = run("--store", f"sqlite:///{path}", "verify")
    assert_clean(code, err, "no casino-audit tables")
    assert path.stat().st_size == 0


def test_opening_without_create_never_creates(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    with pytest.raises(StoreMissing):
        AuditStore(f"sqlite:///{path}", create=False)
    assert not path.exists()
    AuditStore(f"sqlite:///{path}").close()  # a writer creates it
    store = AuditStore(f"sqlite:///{path}", create=False)
    assert store.verify().ok
    store.close()


def test_db_init_makes_a_sqlite_store_and_grants_are_postgresql_only(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    code, out, _ = run("--store", url, "db", "init")
    assert code == 0 and "store ready" in out
    code, out, _ = run("--store", url, "verify")
    assert code == 0 and "chain intact: 0 rows" in out
    code, _, err = run("--store", url, "db", "grant", "--writer", "w")
    assert_clean(code, err, "PostgreSQL")
    code, _, err = run("--store", url, "db", "init", "--owner", "o")
    assert_clean(code, err, "PostgreSQL")


# -- URLs -------------------------------------------------------------------------------

SECRET = "s3cr3t-Pw"


@pytest.mark.parametrize(
    "url,fragment",
    [
        (f"postgresql://u:{SECRET}@127.0.0.1:99999/db", "port"),
        (f"postgresql://u:{SECRET}@127.0.0.1:abc/db", "port"),
        (f"postgresql://u:{SECRET}@127.0.0.1:0/db", "port"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db", "cannot open the store"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema=pg_catalog", "reserved"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema=information_schema", "reserved"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema=pg_temp_1", "reserved"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema=PG_Toast", "reserved"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema=a%20b", "letters, digits"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?schema={'s' * 64}", "63 bytes"),
        (f"postgresql://u:{SECRET}@127.0.0.1:1/db?sslmode=disable", "no query parameter"),
        (f"postgresql://u:{SECRET}/x@127.0.0.1:1/db", "percent-encode"),
        (f"postgresql://u:{SECRET}@[::1/db", "unbalanced"),
    ],
)
@pytest.mark.parametrize("command", [["verify"], ["ingest", "."], ["db", "init"]])
def test_bad_postgresql_urls_are_refused_cleanly(
    url: str, fragment: str, command: list[str]
) -> None:
    code, out, err = run("--store", url, *command)
    assert_clean(code, err, fragment)
    assert SECRET not in out + err and "Pw" not in out + err


def test_a_role_without_create_given_a_new_schema_is_refused_cleanly() -> None:
    base = postgres_base_url()
    role = f"ca_nocreate_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
    try:
        parts = urlsplit(base)
        as_role = urlunsplit(parts._replace(netloc=f"{role}@{parts.hostname}:{parts.port}"))
        schema = f"t_{uuid.uuid4().hex[:12]}"
        for command in (["ingest", "."], ["checkpoint"], ["db", "init"], ["verify"]):
            code, _, err = run("--store", f"{as_role}?schema={schema}", *command)
            assert_clean(code, err, schema)
        with pytest.raises(StoreUnusable, match="may not create one"):
            AuditStore(f"{as_role}?schema={schema}")
        with psycopg.connect(base) as conn:
            found = conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)
            ).fetchone()
        assert found is None
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP ROLE {role}")


# -- keys -------------------------------------------------------------------------------


@pytest.mark.parametrize("existing", ["checkpoint-signing.key", "checkpoint-signing.pub"])
def test_keygen_never_overwrites_a_key(tmp_path: Path, existing: str) -> None:
    (tmp_path / existing).write_text("precious")
    code, _, err = run("keygen", str(tmp_path))
    assert_clean(code, err, str(tmp_path / existing), "already exists")
    assert (tmp_path / existing).read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == [existing]


def test_keygen_writes_a_private_key_only_its_owner_reads(tmp_path: Path) -> None:
    code, _, _ = run("keygen", str(tmp_path / "keys"))
    assert code == 0
    assert (tmp_path / "keys" / "checkpoint-signing.key").stat().st_mode & 0o077 == 0
    code, _, err = run("keygen", str(tmp_path / "keys"))
    assert_clean(code, err, "checkpoint-signing.key")


def test_keygen_into_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").touch()
    code, _, err = run("keygen", str(tmp_path / "f" / "keys"))
    assert_clean(code, err, "cannot write a key")


# -- no password in any message, whatever the URL's shape --------------------------------

MARK_START, MARK_END = "Qz7", "7zQ"  # never in a message unless the password leaked
_CORE = st.text(
    alphabet=st.one_of(
        st.sampled_from("@:/?#%&=[]. \t\\'\"+"),
        st.characters(blacklist_categories=("Cs",), max_codepoint=0x2FFF),
    ),
    max_size=12,
)
_PASSWORDS = _CORE.map(lambda core: f"{MARK_START}{core}{MARK_END}")
_SHAPES = st.sampled_from(
    [
        "{scheme}://{user}:{pw}@{host}{port}/{db}{query}",
        "{scheme}://{user}:{pw}@{host}{port}",
        "{scheme}://{user}:{pw}@{host}{port}/{db}#frag",
        "{scheme}:{user}:{pw}@{host}/{db}",
        "{scheme}:/{user}:{pw}@{host}/{db}",
        "{user}:{pw}@{host}/{db}",
        "{scheme}://{user}@{host}{port}/{db}?password={pw}",
        "{scheme}://{user}@{host}{port}/{db}?schema=s&password={pw}",
        "{scheme}://{user}:{pw}",
        "{scheme}://{user}:{pw}/{db}",
        "{scheme}://{user}:{pw}@[{host}/{db}",
        "{scheme}://{user}:{pw}@{host}]{port}/{db}",
        "{scheme}://:{pw}@{host}{port}/{db}{query}",
    ]
)
_FIELDS = st.fixed_dictionaries(
    {
        "scheme": st.sampled_from(
            ["postgresql", "postgres", "postgresql+psycopg", "mysql", "sqlite", "", "POSTGRESQL"]
        ),
        "user": st.sampled_from(["", "audit", "a%40b", "u:v", "x y"]),
        "host": st.sampled_from(["127.0.0.1", "localhost", "db.example", "", "::1"]),
        "port": st.sampled_from(["", ":1", ":5432", ":99999", ":abc", ":0", ":-1"]),
        "db": st.sampled_from(["casino", "", "a/b", "d%20b"]),
        "query": st.sampled_from(["", "?schema=s1", "?schema=pg_catalog", "?schema=", "?x=1"]),
    }
)


def _leaked(password: str, text: str, url: str) -> bool:
    """Whether ``text`` shows the password meant by ``password``: whole (as typed, decoded
    or with its whitespace collapsed); as the URL's syntax reads it (the parsed
    password); and, when it holds none of the characters that end a URL's password
    (``@ / ? #``: a URL that holds them unencoded means something else, e.g. after the
    last ``@`` comes the host), any piece of it at all (its marks)."""
    forms = {password, unquote(password), " ".join(password.split())}
    with contextlib.suppress(StoreURLError):
        forms.add(parse_store_url(url).password)
    if any(form and form in text for form in forms):
        return True
    unambiguous = not any(c in password for c in "@/?#")
    return unambiguous and (MARK_START in text or MARK_END in text)


@settings(max_examples=300, deadline=None)
@given(shape=_SHAPES, fields=_FIELDS, password=_PASSWORDS)
def test_parsing_never_shows_the_password(shape: str, fields: dict, password: str) -> None:
    url = shape.format(pw=password, **fields)
    try:
        parsed = parse_store_url(url)
    except StoreURLError as error:
        assert not _leaked(password, str(error), url), (url, str(error))
        assert not _leaked(password, repr(error), url)
        return
    assert not _leaked(password, parsed.redacted(), url), (url, parsed.redacted())


def _failing_connect(*args: object, **kwargs: object) -> None:
    """psycopg.connect that fails with every connection setting in its message: the
    worst case of a driver error quoting its arguments."""
    settings_text = " ".join(f"{key}={value}" for key, value in kwargs.items())
    raise psycopg.OperationalError(f"connection failed ({settings_text} {args})")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    shape=_SHAPES,
    fields=_FIELDS,
    password=_PASSWORDS,
    command=st.sampled_from(
        [["verify"], ["findings"], ["checkpoint"], ["db", "init"], ["db", "grant", "--reader", "r"]]
    ),
)
def test_the_cli_never_shows_the_password(
    shape: str, fields: dict, password: str, command: list[str], tmp_path: Path
) -> None:
    url = shape.format(pw=password, **fields)
    if url.startswith("sqlite:///"):  # a file name: nothing in it is a password
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(psycopg, "connect", _failing_connect)
        patch.chdir(tmp_path)
        code, out, err = run("--store", url, *command)
    assert code == 2, (url, out, err)
    assert "Traceback" not in err
    assert not _leaked(password, out + err, url), (url, out + err)
