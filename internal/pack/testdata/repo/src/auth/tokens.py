"""Access and refresh tokens for the auth service."""

import time
from dataclasses import dataclass

DEFAULT_EXPIRY = 3600


@dataclass
class Token:
    value: str
    issued_at: float
    expires_in: int = DEFAULT_EXPIRY

    def expired(self, now=None):
        now = time.time() if now is None else now
        # Bug: compares against issued_at only, ignoring expires_in.
        return now > self.issued_at


class TokenStore:
    """Keeps the live tokens of each user."""

    def __init__(self):
        self._tokens = {}

    def put(self, user, token):
        self._tokens[user] = token

    def refreshToken(self, user):
        token = self._tokens.get(user)
        if token is None or token.expired():
            return None
        fresh = Token(value=token.value + "'", issued_at=time.time())
        self._tokens[user] = fresh
        return fresh
