"""Settings for ramiscore: one module, driven by the environment (see README.md)."""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from ramiscore.env import envbool, envint, envlist, envstr

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DJANGO_DEBUG", False)

# A development key only with DEBUG on. Without a key in production the settings still load,
# so that commands which sign nothing (migrate, collectstatic, check, rami score) run; the
# server refuses to start (ramiscore/wsgi.py, asgi.py) and `check --deploy` warns (W009).
SECRET_KEY = envstr("DJANGO_SECRET_KEY", "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-only-key-for-ramiscore"  # noqa: S105

ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Form fields posted under their old names (a donne queued before an update) read as today's.
    "ramiscore.renamed_fields.RenamedFieldsMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The account the phone's kept pages belong to (static/js/sw.js).
    "ramiscore.offline_account.OfflineAccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ramiscore.csp.ContentSecurityPolicyMiddleware",
    # An owner's pages and files are stored by no cache, the browser's included.
    "ramiscore.private.PrivateOwnerPagesMiddleware",
    # The database away: 503 with Retry-After, never a 500 for each request.
    "ramiscore.unavailable.DatabaseAwayMiddleware",
]

ROOT_URLCONF = "ramiscore.urls"
WSGI_APPLICATION = "ramiscore.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# SQLite by default so that a fresh clone runs with nothing else installed;
# DATABASE_URL (postgres://…) switches to PostgreSQL.
DATABASE_URL = envstr("DATABASE_URL", "")
if DATABASE_URL:
    # A connection kept between requests is checked first: after PostgreSQL restarts, a worker
    # reconnects instead of answering 500 with the dead connection.
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / envstr("SQLITE_NAME", "db.sqlite3"),
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN: two phones writing at once
                # wait for each other instead of failing with "database is locked".
                "transaction_mode": "IMMEDIATE",
                "timeout": envint("SQLITE_TIMEOUT", 20),
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not memory, so that the live-server threads of the concurrency tests
            # each have their own connection, as two phones would.
            "TEST": {"NAME": BASE_DIR / envstr("SQLITE_TEST_NAME", "test-db.sqlite3")},
            # Keep a worker's connection between requests: opening SQLite and setting its
            # pragmas was most of the cost of an unchanged live-view poll.
            "CONN_MAX_AGE": envint("SQLITE_CONN_MAX_AGE", 600),
            "CONN_HEALTH_CHECKS": True,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One cache for every worker and every server: what is counted or kept there (the rendered
# marque and its PDF, the lock that renders one PDF at a time per account) must be the same
# in all of them. The database by default (`manage.py createcachetable`, run by `make run`
# and the deploy steps of the README); Redis when REDIS_URL is set.
REDIS_URL = envstr("REDIS_URL", "")
# A Redis that stops answering (a host gone, a partition) is away after a second, never a
# worker held until gunicorn's timeout: the cache then fails safe (ramiscore/cache.py).
REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "ramiscore.cache.FailSafeRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_OPTIONS,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "ramiscore_cache",
            # Django's 300 entries are some 150 tables' pages: past them, each write culls a
            # third of the cache, the pages of tables still playing with it. Each table keeps
            # about ten things, each in one place (games/cache_places.py): two thousand tables.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

# A folder the proxy reads to answer an unchanged share poll itself, without the app
# (games/follow_marks.py, deploy/Caddyfile): the same variable is given to both. Empty: every
# poll reaches the app, as behind nginx or in development.
FOLLOW_MARKS_DIR = envstr("RAMISCORE_FOLLOW_MARKS", "")

# The task runner: django-tasks' database backend, run by `manage.py db_worker` next to the
# web server (docs/decisions.md "PDFs off the request path"). The database is there in every
# setup, so no other service is needed and a queued task survives any restart.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# PDFs rendered at once across every worker and server (games/render_slots.py): below the web
# workers' count, so that renders never take every core from the pages.
PDF_RENDERS_AT_ONCE = envint("RAMISCORE_PDF_RENDERS_AT_ONCE", 1)
# A partie's PDF is queued as soon as a write to it is committed (games/tasks.py).
PDF_RENDER_ON_CHANGE = envbool("RAMISCORE_PDF_RENDER_ON_CHANGE", True)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("Français")), ("en", _("Anglais"))]
# The language chosen in the ⚙ menu (set_language) is remembered for a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes and whitenoise serves from (a container or a test puts it elsewhere).
STATIC_ROOT = Path(envstr("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# The engine's own files as one static zip, for the phone's Pyodide (games/engine_files.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.engine_files.EngineFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "ramiscore.static_storage.StaticStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Without collectstatic (make run, tests), whitenoise serves from the finders. Not in
# production: there a finder's file would shadow the collected one of the same unhashed name
# and its .gz (Pyodide's files are asked for by unhashed names: 13 MB instead of 6.4 MB).
WHITENOISE_USE_FINDERS = DEBUG

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# How many reverse proxies (nginx, Caddy) stand in front and append to X-Forwarded-For; the
# login limits count per visitor address (games/login_limits.py).
TRUSTED_PROXIES = envint("DJANGO_TRUSTED_PROXIES", 0)
# Production hardening: on unless DEBUG; a TLS terminator in front is assumed. X-Forwarded-Proto
# is believed only from a proxy we were told about: without one, any client could write it.
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# The health check answers over plain http too: a container's or a load balancer's probe
# speaks to gunicorn directly, where there is no TLS (docs/deploy.md).
SECURE_REDIRECT_EXEMPT = [r"^sante/$"]
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = envint("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
# Preloading commits the whole domain to HTTPS for good: the domain's owner decides.
SECURE_HSTS_PRELOAD = envbool("DJANGO_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Only our own scripts and styles, no inline ones (ramiscore/csp.py). Also in
# development, so a violation shows up before production.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("DJANGO_LOG_LEVEL", "WARNING")},
}
