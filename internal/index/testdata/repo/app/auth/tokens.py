"""Authentication tokens and their expiry."""
import datetime

from app.settings import TOKEN_TTL


class TokenManager:
    """Issues tokens and checks token expiry."""

    def issue(self, user):
        return Token(user, datetime.datetime.now() + TOKEN_TTL)

    def is_expired(self, token):
        # expiry is compared in UTC
        return token.expires_at < datetime.datetime.utcnow()
