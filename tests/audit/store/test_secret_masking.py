"""One function masks secrets (``audit.config.mask_secrets``), whole tokens only, in every
message that can carry a store URL or a driver's error (issue 41 item 2).

One-character passwords (``o``, ``a``, ``1``, ``e``, ``t``) through each path: the URL
parser's refusals, ``scrub`` (the CLI's last guard), ``safe_message`` (a driver's error:
``connect``, opening the store, ``db init``/``grant``, the retention steps) and the CLI
itself against a server that is not there. Before the fix ``safe_message`` replaced
every occurrence, so ``connection failed`` read ``c***nnecti***n failed``.
"""

from __future__ import annotations

import contextlib
import io
import socket

import pytest

from audit.config import mask_secrets, parse_store_url, scrub
from audit.store.existing import StoreUnusable, connect, safe_message
from audit.store.partitions import _owner_only
from cli.main import main

PASSWORDS = ("o", "a", "1", "e", "t")
DRIVER_TEXT = (
    'connection failed: connection to server at "127.0.0.2", port 5999 failed: '
    "Connection refused\n\tIs the server running on that host and accepting TCP/IP?"
)


def _free_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.2", 0))
        return int(sock.getsockname()[1])


def _url(password: str, port: int = 5432) -> str:
    return f"postgresql://audit:{password}@127.0.0.2:{port}/audit"


@pytest.mark.parametrize("password", PASSWORDS)
def test_mask_secrets_masks_whole_tokens_only(password: str) -> None:
    assert mask_secrets(DRIVER_TEXT, [password]) == DRIVER_TEXT
    assert mask_secrets(f"password {password} refused", [password]) == "password *** refused"
    assert mask_secrets(f"({password})", [password]) == "(***)"


@pytest.mark.parametrize("password", PASSWORDS)
def test_safe_message_keeps_words_and_hides_the_password(password: str) -> None:
    url = parse_store_url(_url(password))
    assert safe_message(RuntimeError(DRIVER_TEXT), url) == " ".join(DRIVER_TEXT.split())
    said = safe_message(RuntimeError(f"auth for audit:{password} failed"), url)
    assert said == "auth for audit:*** failed"


@pytest.mark.parametrize("password", PASSWORDS)
def test_scrub_and_safe_message_agree(password: str) -> None:
    url = _url(password)
    text = f"{DRIVER_TEXT} using {password}"
    assert " ".join(scrub(text, url).split()) == safe_message(
        RuntimeError(text), parse_store_url(url)
    )


@pytest.mark.parametrize("password", PASSWORDS)
def test_a_real_driver_error_through_connect_is_read_whole(password: str) -> None:
    url = parse_store_url(_url(password, _free_port()))
    with pytest.raises(StoreUnusable) as raised:
        connect(url)
    message = str(raised.value)
    assert "***" not in message, message  # the password is nowhere in the driver's text
    assert "connection" in message.lower(), message
    assert f":{password}@" not in message


@pytest.mark.parametrize("password", PASSWORDS)
def test_a_retention_refusal_masks_the_password_whole(password: str) -> None:
    url = parse_store_url(_url(password))
    error = _owner_only(RuntimeError(f"permission denied for {password}"), "cut the day", url)
    assert "permission denied for ***" in str(error)
    assert "the store owner's" in str(error)


@pytest.mark.parametrize("password", PASSWORDS)
@pytest.mark.parametrize("command", [["verify"], ["findings"], ["db", "init"]])
def test_the_cli_prints_a_driver_error_readably(password: str, command: list[str]) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["--store", _url(password, _free_port()), *command])
    text = out.getvalue()
    assert code == 2, text
    assert "Traceback" not in text
    assert "***" not in text.replace("audit:***@", ""), text
    assert "connection" in text.lower(), text
    assert f":{password}@" not in text


@pytest.mark.parametrize("password", PASSWORDS)
def test_a_url_that_cannot_be_read_hides_the_password(password: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_store_url(f"postgresql://audit:{password}@127.0.0.2:port/audit")
    assert f":{password}@" not in str(raised.value)
    assert "port that is not a number" in str(raised.value)
