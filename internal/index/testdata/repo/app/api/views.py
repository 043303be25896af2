from app.api.throttle import Throttle
from app.auth import TokenManager


def login(request):
    throttle = Throttle()
    if not throttle.allow(request.client):
        return "rate limit exceeded"
    return TokenManager().issue(request.user)
