from flask import Blueprint, jsonify, request

from .jwt_helpers import encode_claims
from .passwords import check_password
from ..store import find_user

bp = Blueprint("login", __name__)


@bp.post("/login")
def login():
    form = request.get_json(force=True)
    user = find_user(form.get("email", ""))
    if user is None or not check_password(user, form.get("password", "")):
        return jsonify(error="wrong email or password"), 401
    return jsonify(jwt=encode_claims(user["id"]))
