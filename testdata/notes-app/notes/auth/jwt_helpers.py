"""Signing and checking the JWTs handed out at sign-in."""
import base64
import hashlib
import hmac
import json
import time

from .. import settings


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_claims(subject: str) -> str:
    """Return a signed JWT for subject, usable for JWT_LIFETIME_SECONDS."""
    issued = int(time.time())
    claims = {"sub": subject, "iat": issued, "exp": issued + settings.JWT_LIFETIME_SECONDS}
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = _b64(json.dumps(claims).encode())
    sig = hmac.new(settings.SECRET_KEY.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{_b64(sig)}"


def decode_claims(raw: str) -> dict:
    """Check the signature of raw and return its claims; ValueError if bad."""
    head, body, sig = raw.split(".")
    want = hmac.new(settings.SECRET_KEY.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(want, _unb64(sig)):
        raise ValueError("bad signature")
    return json.loads(_unb64(body))


def is_stale(claims: dict) -> bool:
    """A JWT is stale once the clock passes its exp claim."""
    now_ms = time.time() * 1000
    return claims["exp"] < now_ms
