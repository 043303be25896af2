"""Request throttling: rate limit per client."""
from ..settings import RATE_LIMIT


class Throttle:
    def allow(self, client):
        # throttle when the request rate exceeds the limit
        return client.requests < RATE_LIMIT
