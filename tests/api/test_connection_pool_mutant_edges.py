"""Edges of the connection pool's sockets (issue 18 §2): each wait on the network keeps the
client's per-step timeout, so a server that never lets a connection in, never reads what is
sent, or never answers is reported for what it did, within that timeout, and not only once the
whole request's deadline has passed. Loopback servers made of bare sockets: the sandbox always
answers."""

from __future__ import annotations

import datetime
import ipaddress
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.api import errors as e
from app.api import transport as transport_module
from app.api.client import ApiClient
from app.api.retry import RetryPolicy
from app.models.requests import SignatureInput
from tests.api.helpers import FakeClock

STEP_TIMEOUT = 0.3
"""The client's per-step timeout here; the whole-request deadline is far longer."""
DEADLINE = 6.0


class Mute:
    """Accepts connections, never reads from them and never answers."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self._accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/api"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._accepted.append(conn)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for conn in self._accepted:
            conn.close()
        self._listener.close()


@pytest.fixture
def mute() -> Iterator[Mute]:
    server = Mute()
    yield server
    server.close()


@pytest.fixture
def full() -> Iterator[str]:
    """A server whose waiting room is full: a new connection is never let in (its SYN is
    dropped, as a host behind a dead route or a firewall would)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    waiting = socket.create_connection(("127.0.0.1", port))  # fills the one place
    yield f"http://127.0.0.1:{port}/api"
    waiting.close()
    listener.close()


def client_for(base_url: str) -> ApiClient:
    api = ApiClient(
        base_url,
        "key",
        timeout=STEP_TIMEOUT,
        retry=RetryPolicy(max_attempts=1, jitter=0.0),
        clock=FakeClock(),
    )
    api._transport.deadline = DEADLINE
    return api


@pytest.mark.asyncio
async def test_a_server_that_never_answers_times_out_at_the_read_timeout(mute: Mute) -> None:
    async with client_for(mute.base_url) as api:
        with pytest.raises(e.RequestTimedOut) as caught:
            await api.labels.list()
    assert caught.value.message == "The server did not answer in time."


@pytest.mark.asyncio
async def test_a_server_that_never_reads_a_large_body_times_out_at_the_write_timeout(
    mute: Mute,
) -> None:
    """More than the loopback buffers hold, so the write itself waits."""
    signature = SignatureInput(name="Long", content="x" * (24 * 1024 * 1024))
    async with client_for(mute.base_url) as api:
        with pytest.raises(e.OutcomeUnknown) as caught:
            await api.signatures.create(signature)
    assert caught.value.message == (
        "No answer came after sending; it is unknown whether the server saved it."
    )


@pytest.mark.asyncio
async def test_a_connection_never_let_in_times_out_at_the_connect_timeout(full: str) -> None:
    async with client_for(full) as api:
        with pytest.raises(e.ConnectionFailed) as caught:
            await api.labels.list()
    assert caught.value.message == "Connecting to the server timed out."


# -- HTTPS: the client's own TLS setup -------------------------------------------------------


def _certificate(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: x509.Certificate | None,
    signer: ec.EllipticCurvePrivateKey,
) -> x509.Certificate:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(issuer.subject if issuer is not None else name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
    )
    if issuer is None:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
    else:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            False,
        )
    return builder.sign(signer, hashes.SHA256())


class Labels(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps([{"id": "l1", "name": "News"}]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def private_ca_server(tmp_path: Path) -> Iterator[tuple[str, bytes]]:
    """An HTTPS server on loopback whose certificate comes from a CA of its own: (base URL,
    the CA in PEM)."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("Postdesk test CA", ca_key, None, ca_key)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = _certificate("127.0.0.1", key, ca, ca_key)
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "key.pem")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Labels)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield (
        f"https://127.0.0.1:{server.server_address[1]}/api",
        ca.public_bytes(serialization.Encoding.PEM),
    )
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.mark.asyncio
async def test_https_connections_use_the_clients_tls_setup(
    private_ca_server: tuple[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool connects with the TLS setup the client built (its CA store), not a default of
    its own: a server trusted by that setup is reached."""
    base_url, ca_pem = private_ca_server
    trusted = ssl.create_default_context(cadata=ca_pem.decode())
    monkeypatch.setattr(transport_module, "_ssl_context", lambda: trusted)
    async with client_for(base_url) as api:
        labels = await api.labels.list()
    assert [(label.id, label.name) for label in labels] == [("l1", "News")]


@pytest.mark.asyncio
async def test_a_server_the_tls_setup_does_not_trust_is_refused(
    private_ca_server: tuple[str, bytes],
) -> None:
    base_url, _ = private_ca_server
    async with client_for(base_url) as api:
        with pytest.raises(e.ConnectionFailed):
            await api.labels.list()
