"""HTTPS through the pinned address: the fetcher connects to the address the policy checked,
yet TLS still names and verifies the host (SNI and the certificate's name), as a real public
source needs."""

from __future__ import annotations

import datetime
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from wander.adapters.sources.egress import EgressPolicy, Unreachable
from wander.adapters.sources.fetch import Fetcher, HostLimiter


def certificate(tmp_path, name: str):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


@pytest.fixture
def tls_server(tmp_path):
    cert, key = certificate(tmp_path, "source.example")
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            seen.append(self.headers["Host"])
            body = b"secure text"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    sni: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: sni.append(name)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], cert, seen, sni
    httpd.shutdown()
    httpd.server_close()


def fetcher_for(cert, names: dict[str, list[str]]) -> Fetcher:
    f = Fetcher(
        EgressPolicy.from_settings(["127.0.0.1/32"], resolver=lambda host, port: names[host]),
        limiter=HostLimiter(0.0),
        timeout_s=3,
        verify=ssl.create_default_context(cafile=str(cert)),
    )
    return f


def test_https_names_the_host_while_connecting_to_the_checked_address(tls_server):
    port, cert, seen, sni = tls_server
    f = fetcher_for(cert, {"source.example": ["127.0.0.1"]})
    r = f.get(f"https://source.example:{port}/page")
    f.close()
    assert r.text() == "secure text" and seen == [f"source.example:{port}"] and sni == ["source.example"]


def test_a_certificate_for_another_name_is_refused(tls_server):
    port, cert, seen, _ = tls_server
    f = fetcher_for(cert, {"impostor.example": ["127.0.0.1"]})
    with pytest.raises(Unreachable, match="cannot reach"):
        f.get(f"https://impostor.example:{port}/page")
    f.close()
    assert seen == []
