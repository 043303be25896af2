SECRET_KEY = "change-me"
INSTALLED_APPS = ["django.contrib.contenttypes", "academy.registrar", "academy.catalog"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "academy.sqlite3"}}
TIME_ZONE = "Europe/Dublin"
USE_TZ = True
ROOT_URLCONF = "academy.urls"
