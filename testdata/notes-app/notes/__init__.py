from flask import Flask

from .views.notes import bp as notes_bp
from .auth.login import bp as login_bp


def create_app() -> Flask:
    app = Flask(__name__)
    app.register_blueprint(login_bp)
    app.register_blueprint(notes_bp)
    return app
