"""The security headers the app sends: on every answer (API_HEADERS), and on the
mind map's pages and assets (SECURITY_HEADERS: a Content-Security-Policy that allows only
this origin's scripts, since the Vite build has no inline script; inline style, which React
Flow's computed styles need; its own WebSockets; data:/blob: images, for the favicon and
exported PNGs; no framing)."""

from __future__ import annotations

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers without CSP level 2
}

# On every answer (API JSON and problem bodies included): app.py passes them as the app's
# response_headers; problems.problem() sets them on error answers, which bypass those.
API_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
