import os

SECRET_KEY = os.environ.get("NOTES_SECRET_KEY", "dev-only")
# How long a signed JWT stays usable, in seconds.
JWT_LIFETIME_SECONDS = int(os.environ.get("NOTES_JWT_LIFETIME", "3600"))
DATABASE_PATH = os.environ.get("NOTES_DB", "notes.sqlite3")
