"""scrub_pii: personal data and secrets out, ordinary text (figures, dates, concepts) untouched."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wander.core.domain.pii import scrub_pii


@pytest.mark.parametrize(
    "text, gone, placeholder",
    [
        ("write to jane.doe+wander@example.co.uk today", "jane.doe+wander@example.co.uk", "[email]"),
        ("ops@sub.example.org", "ops@sub.example.org", "[email]"),
        ("call +1 415 555 0100 now", "+1 415 555 0100", "[phone]"),
        ("call (415) 555-0100", "(415) 555-0100", "[phone]"),
        ("office 020 7946 0958", "020 7946 0958", "[phone]"),
        ("+44 20 7946 0958", "+44 20 7946 0958", "[phone]"),
        (
            "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
            "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
            "[secret]",
        ),
        ("sk-proj-abcdefghijklmnop1234", "sk-proj-abcdefghijklmnop1234", "[secret]"),
        ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[secret]"),
        ("xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij", "[secret]"),
        ("AKIAIOSFODNN7EXAMPLE is the id", "AKIAIOSFODNN7EXAMPLE", "[aws-key]"),
        ("secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "[secret]"),
        ("sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "9f86d081884c7d659a2f", "[secret]"),
        ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz012345", "[secret]"),
        ("password: hunter2hunter2", "hunter2hunter2", "[secret]"),
        ("api_key=0123456789abcdefXYZ", "0123456789abcdefXYZ", "[secret]"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "eyJhbGciOiJIUzI1NiJ9",
            "[secret]",
        ),
        ("pay to GB82 WEST 1234 5698 7654 32 please", "GB82 WEST 1234 5698 7654 32", "[iban]"),
        ("DE89370400440532013000", "DE89370400440532013000", "[iban]"),
        ("card 4111 1111 1111 1111 exp", "4111 1111 1111 1111", "[card]"),
        ("card 5500-0000-0000-0004", "5500-0000-0000-0004", "[card]"),
    ],
)
def test_scrubs(text, gone, placeholder):
    out = scrub_pii(text)
    assert gone not in out, out
    assert placeholder in out, out


@pytest.mark.parametrize(
    "text",
    [
        "Cosine distance 0.55 (mid-band) while their lineages meet at 'market' 3.5 levels up on average.",
        "'information asymmetry' and 'lighthouse keeper' (cos 0.42 to the midpoint, 0.37 to the other)",
        "Akerlof's market for lemons (1970); steps 12-40; 2024-01-02; version 3.14.15.92",
        "token economy and the interoperability of ledgers",
        "a 12-step wander over 14,000 concepts with 384 dimensions",
        "GB82 is not an IBAN on its own, nor is DE00 1234 5678 9012 3456 78",  # bad checksum
        "4111 1111 1111 1112 fails Luhn",
        "[email] and [secret] stay as they are",
        "",
    ],
)
def test_leaves_ordinary_text_alone(text):
    assert scrub_pii(text) == text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_total_and_idempotent(text):
    once = scrub_pii(text)
    assert isinstance(once, str)
    assert scrub_pii(once) == once
