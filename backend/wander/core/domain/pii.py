"""PII and secret scrubbing for text a model wrote, before anything is stored (000, scope
layer 3). A pure function over strings: e-mail addresses, phone numbers, API keys and
tokens, AWS keys, long hex or base64 secrets, IBANs and card numbers become placeholders.

Checksums keep the false positives down: an IBAN must pass mod 97, a card number Luhn;
a phone number needs 9 to 15 digits and the shape of a phone number (a leading +, a
bracketed area code or at least two separators), so figures like "cos 0.42", years and
date ranges are left alone."""

from __future__ import annotations

import re

EMAIL = "[email]"
PHONE = "[phone]"
SECRET = "[secret]"
AWS_KEY = "[aws-key]"
IBAN = "[iban]"
CARD = "[card]"

_TOKEN_PREFIXES = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"sk-[A-Za-z0-9_\-]{16,}"  # OpenAI / Anthropic style (sk-..., sk-ant-..., sk-proj-...)
    r"|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}"  # GitHub tokens
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}"  # Slack
    r"|AIza[0-9A-Za-z_\-]{30,}"  # Google API keys
    r"|glpat-[A-Za-z0-9_\-]{16,}"  # GitLab
    r"|(?:r|s)k_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe
    r"|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"  # JWT
    r")"
)
_BEARER = re.compile(r"(?i)\b(bearer)(\s+)([A-Za-z0-9_\-./+=]{16,})")
_ASSIGNED = re.compile(
    r"(?i)\b(api[_\- ]?key|access[_\- ]?key|secret(?:[_\- ]?key)?|token|password|passwd)(\s*[:=]\s*[\"']?)([^\s\"']{8,})"
)
_AWS = re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![A-Z0-9])")
_HEX = re.compile(r"(?<![A-Za-z0-9])(?:0x)?[0-9a-fA-F]{32,}(?![A-Za-z0-9])")
_B64 = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{32,}={0,2}(?![A-Za-z0-9+/_\-])")
_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?(?![A-Za-z0-9])")
_CARD = re.compile(r"(?<![\d.,])\d(?:[ -]?\d){12,18}(?![\d.,]\d)")
_PHONE = re.compile(
    r"(?<![\w.+])(?:\+\d{1,3}[ .\-]?)?(?:\(\d{1,4}\)[ .\-]?)?\d{2,5}(?:[ .\-]\d{2,5}){1,5}(?![\w.]\d|\w)"
)


def _looks_random(s: str) -> bool:
    """A long run that mixes upper case, lower case and digits: a secret, not a word."""
    core = s.rstrip("=")
    classes = sum((any(c.islower() for c in core), any(c.isupper() for c in core), any(c.isdigit() for c in core)))
    return classes == 3 and len(core) >= 32


def _iban_ok(raw: str) -> bool:
    s = raw.replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    moved = s[4:] + s[:4]
    digits = "".join(str(int(c, 36)) for c in moved)
    return int(digits) % 97 == 1


def _luhn_ok(raw: str) -> bool:
    digits = [int(c) for c in raw if c.isdigit()]
    if not 13 <= len(digits) <= 19 or len(set(digits)) == 1:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _phone(m: re.Match[str]) -> str:
    s = m.group(0)
    n = sum(c.isdigit() for c in s)
    if not 9 <= n <= 15:
        return s
    separators = len(re.findall(r"[ .\-]", s))
    if s.startswith("+") or "(" in s or separators >= 2:
        # Dotted groups like 3.14.15.92 are more likely versions or figures than phones.
        if "." in s and not s.startswith("+") and "(" not in s and " " not in s and "-" not in s:
            return s
        return PHONE
    return s


def scrub_pii(text: str) -> str:
    """The text with personal data and secrets replaced by placeholders; otherwise unchanged."""
    if not text:
        return text
    out = _TOKEN_PREFIXES.sub(SECRET, text)
    out = _BEARER.sub(lambda m: f"{m.group(1)}{m.group(2)}{SECRET}", out)
    out = _ASSIGNED.sub(lambda m: m.group(0) if m.group(3) == SECRET else f"{m.group(1)}{m.group(2)}{SECRET}", out)
    out = _AWS.sub(AWS_KEY, out)
    out = _EMAIL.sub(EMAIL, out)
    out = _HEX.sub(SECRET, out)
    out = _B64.sub(lambda m: SECRET if _looks_random(m.group(0)) else m.group(0), out)
    out = _IBAN.sub(lambda m: IBAN if _iban_ok(m.group(0)) else m.group(0), out)
    out = _CARD.sub(lambda m: CARD if _luhn_ok(m.group(0)) else m.group(0), out)
    out = _PHONE.sub(_phone, out)
    return out


def scrub_all(values: list[str]) -> list[str]:
    return [scrub_pii(v) for v in values]
