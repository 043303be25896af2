from app.api.throttle import Throttle

# Apply the request throttle and its rate limit to every request.
class ThrottleMiddleware:
    def __call__(self, request):
        return Throttle().allow(request.client)
