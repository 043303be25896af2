from flask import Blueprint, g, jsonify, request

from ..auth.guard import signed_in
from ..store import add_note, notes_of

bp = Blueprint("notes", __name__, url_prefix="/notes")


@bp.get("/")
@signed_in
def list_notes():
    return jsonify(notes_of(g.user_id))


@bp.post("/")
@signed_in
def create_note():
    text = (request.get_json(force=True) or {}).get("text", "").strip()
    if not text:
        return jsonify(error="empty note"), 400
    return jsonify(id=add_note(g.user_id, text)), 201
