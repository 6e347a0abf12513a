"""Settings for Django's own test suite (tests/runtests.py) against one MySQL-protocol server: a
plain MariaDB or Cleave's proxy, named by the environment (scripts/django-suite sets it)."""
import os


def _database(name):
    return {
        "ENGINE": "django.db.backends.mysql",
        "HOST": os.environ["DJANGO_DB_HOST"],
        "PORT": os.environ["DJANGO_DB_PORT"],
        "USER": os.environ["DJANGO_DB_USER"],
        "PASSWORD": os.environ.get("DJANGO_DB_PASSWORD", ""),
        "NAME": name,
        "OPTIONS": {"ssl_mode": "DISABLED"},
    }


# The suite's tests of several databases need a second alias ("other"), as Django's own CI has.
DATABASES = {"default": _database("django_default"), "other": _database("django_other")}
SECRET_KEY = "django_tests_secret_key"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = False
TEST_RUNNER = "cleave_runner.RecordingRunner"
