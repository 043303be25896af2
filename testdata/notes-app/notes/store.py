import sqlite3

from . import settings


def connect() -> sqlite3.Connection:
    conn = sqlite3.connect(settings.DATABASE_PATH)
    conn.row_factory = sqlite3.Row
    return conn


def find_user(email: str):
    with connect() as conn:
        row = conn.execute("SELECT * FROM users WHERE lower(email) = lower(?)", (email,)).fetchone()
        return dict(row) if row else None


def notes_of(user_id: str):
    with connect() as conn:
        return [dict(r) for r in conn.execute("SELECT * FROM notes WHERE owner = ?", (user_id,))]


def add_note(user_id: str, text: str) -> int:
    with connect() as conn:
        cur = conn.execute("INSERT INTO notes(owner, text) VALUES (?, ?)", (user_id, text))
        return cur.lastrowid
