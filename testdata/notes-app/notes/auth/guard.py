from functools import wraps

from flask import g, jsonify, request

from .jwt_helpers import decode_claims, is_stale


def signed_in(view):
    """Reject requests without a valid, current JWT in Authorization."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return jsonify(error="sign in first"), 401
        try:
            claims = decode_claims(header.removeprefix("Bearer "))
        except ValueError:
            return jsonify(error="bad credentials"), 401
        if is_stale(claims):
            return jsonify(error="signed out, sign in again"), 401
        g.user_id = claims["sub"]
        return view(*args, **kwargs)

    return wrapper
