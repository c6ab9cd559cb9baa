"""Settings, all from the environment, with safe local defaults.

With nothing set: DEBUG on, SQLite in the project folder, Celery tasks run eagerly in
the web process, so one command gives a working site. ``DATABASE_URL`` switches to
PostgreSQL (psycopg 3), ``CELERY_BROKER_URL`` to Redis with real workers, and
``DJANGO_DEBUG=0`` with ``SECRET_KEY``, ``ALLOWED_HOSTS`` and the HTTPS settings gives a
deployment that passes ``manage.py check --deploy``.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.utils.csp import CSP

# Lets admin classes and querysets take type arguments at run time (ModelAdmin[Club]).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-change-me-in-production-" + "x" * 20

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "spyleague.core",
    "spyleague.clubs",
    "spyleague.tournaments",
    "spyleague.scores",
    "spyleague.play",
    "spyleague.ratings",
    "spyleague.api",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",  # the policy: SECURE_CSP below
    "spyleague.core.middleware.StaticFiles",  # WhiteNoise, streaming its files under ASGI
    "spyleague.core.middleware.SlowRequests",  # a slow answer logged with where its time went
    "spyleague.core.middleware.DatabaseUnavailable",  # a 503 that needs no database: see its docstring
    "spyleague.core.middleware.BadInput",  # before anything reads the request: see its docstring
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "spyleague.core.auth.AuthenticationMiddleware",  # Django's, the user read with their player
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "spyleague.core.middleware.Throttle",  # sign-ups, logins, tokens per address: SPYLEAGUE_RATES
    "axes.middleware.AxesMiddleware",  # turns a login lockout into the 429 page (AXES_* below)
    "spyleague.core.middleware.one_thread_per_request",  # last: see its docstring
]

ROOT_URLCONF = "spyleague.urls"
WSGI_APPLICATION = "spyleague.wsgi.application"
ASGI_APPLICATION = "spyleague.asgi.application"

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
                "django.template.context_processors.csp",  # csp_nonce for inline <script>/<style>
                "spyleague.core.context_processors.site",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
# PostgreSQL connections come from a pool in each process (psycopg's, built into Django): under
# ASGI every request runs in a thread of its own, so persistent connections would pile up one
# per thread, and a fresh connection per request costs the server a backend each time. A request
# borrows a connection and gives it back when it ends; when all of a process's connections are
# out, it waits for one, DATABASE_POOL_TIMEOUT seconds at most (3: a busy moment passes), and is
# then answered 503 with Retry-After ("busy, try again"), never left hanging. Keep processes x
# DATABASE_POOL_MAX_SIZE below the server's max_connections. DATABASE_POOL=0 turns the pool off
# (then DATABASE_CONN_MAX_AGE keeps connections open that long).
#
# When the database goes away (stopped, restarting, its network gone), the site's backend
# (spyleague.core.database) answers every request 503 at once instead of waiting for the pool,
# tries a fresh connection every half second, and serves again as soon as one is made: see
# README, "When the database goes away". A connection attempt gives up after DATABASE_CONNECT_TIMEOUT
# seconds (2, libpq's least); the pool gives up retrying a lost connection after a few seconds
# (reconnect_timeout) and makes new ones as requests ask, rather than retrying with ever longer
# pauses (psycopg's default keeps at it for 5 minutes, waiting up to a minute between tries).
DATABASE_POOL = env_bool("DATABASE_POOL", True)
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=0 if DATABASE_POOL else int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
            conn_health_checks=True,
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "spyleague.core.database"
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "2"))
        )
        # A statement waits at most this long for a lock that another transaction holds (a row,
        # an event's or a game's advisory lock): then a request is answered "busy" (503 with
        # Retry-After, core.database.trouble) and a job runs again, instead of waiting without end.
        DATABASE_LOCK_TIMEOUT = float(os.environ.get("DATABASE_LOCK_TIMEOUT", "5"))
        DATABASES["default"]["OPTIONS"].setdefault(
            "options", f"-c lock_timeout={int(DATABASE_LOCK_TIMEOUT * 1000)}"
        )
    if DATABASE_POOL and DATABASES["default"]["ENGINE"] == "spyleague.core.database":
        if int(os.environ.get("DATABASE_CONN_MAX_AGE") or "0"):
            raise RuntimeError(
                "DATABASE_CONN_MAX_AGE must be 0 or unset while the connection pool is on; "
                "set DATABASE_POOL=0 to keep persistent connections instead."
            )
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN_SIZE", "2")),
            "max_size": int(os.environ.get("DATABASE_POOL_MAX_SIZE", "10")),
            "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "3")),
            "reconnect_timeout": 2.0,
            "check": None,  # spyleague.core.database checks each connection it takes, and acts
        }
    if os.environ.get("DATABASE_TEST_NAME"):
        # The tests and a live Celery worker share one database (.ci/run).
        DATABASES["default"]["TEST"] = {"NAME": os.environ["DATABASE_TEST_NAME"]}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # One writer at a time: a write waits for the lock up to SQLITE_TIMEOUT seconds (as
            # a PostgreSQL request waits for a pooled connection) rather than fail after the
            # driver's default 5 s when many players move at once.
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": float(os.environ.get("SQLITE_TIMEOUT", "20")),
            },
            # The tests use a file too (one per test process), not the shared-cache in-memory
            # database: that one refuses a write while another thread reads instead of waiting
            # for it, which the live-server browser tests (a bot thread beside the page's
            # requests) would meet now and then. A file waits, as the site's own database does.
            # Its name carries the process id, so two test runs at once never share one.
            "TEST": {
                "NAME": os.environ.get(
                    "SQLITE_TEST_PATH",
                    str(Path(tempfile.gettempdir()) / f"spyleague-test-{os.getpid()}.sqlite3"),
                )
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Logins are rate limited (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username
# from one address, that username is locked out from that address (others, and that username
# from elsewhere, still log in) for AXES_COOLOFF_TIME, with a page saying so (status 429). A
# successful login clears the count. Only password logins count: API tokens and sessions are
# not checked again. The client's address is the socket's (REMOTE_ADDR): behind the HTTPS proxy
# let the server take it from X-Forwarded-For (FORWARDED_ALLOW_IPS, see .env.example), or every
# client would share the proxy's address.
AUTHENTICATION_BACKENDS = [
    "spyleague.core.lockout.LoginLockoutBackend",  # first: refuses a locked-out login
    "spyleague.core.auth.ModelBackend",  # Django's, the user read with their player in one query
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A locked-out client that keeps trying is not kept out for longer: the page's time holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False  # no banner on every manage.py command

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Celery: eager in-process unless a broker is configured.
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or (
    None if CELERY_TASK_ALWAYS_EAGER else CELERY_BROKER_URL
)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 300
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Nothing reads a task's result (what a task did is in the database): none is stored, so the
# sweeps that beat sends every few seconds leave nothing behind in Redis.
CELERY_TASK_IGNORE_RESULT = True
# A worker whose broker went away reconnects for as long as it takes (by default it would stop
# after 100 tries, some 50 minutes; spyleague/celery.py has the fix that keeps it alive meanwhile),
# and one killed mid-task leaves its message unacknowledged: Redis hands it out again after the
# visibility timeout (CELERY_BROKER_TRANSPORT_OPTIONS), which must be longer than the longest task
# may run (the ratings recompute's limit, 600 s), or a task still running would be handed to a
# second worker. The job sweep runs a lost job again well before that.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# ... and tries again every 2 s at most, not kombu's 2, 4, 6 ... 30 s (see spyleague/celery.py).
CELERY_WORKER_CONSUMER = "spyleague.celery:SteadyConsumer"
BROKER_VISIBILITY_TIMEOUT = 900

# The sweeps that heal what a lost worker or broker left behind, from Celery beat. Their periods
# come from the environment so that the fault tests (tests/faults) can shorten them.
# - Bots: every SWEEP_SECONDS, a match that has waited that long on a bot gets its bots' turn, and a
#   Spy vs Spy race its bots' due moves, and an ended match whose result report failed is
#   reported (spyleague.play.sweeps).
# - Jobs: a running job's worker touches its row every JOB_HEARTBEAT_SECONDS; every
#   JOB_SWEEP_SECONDS, a job not touched for JOB_LOST_SECONDS lost its worker and is run again (at
#   most JOB_MAX_ATTEMPTS runs) or marked failed, saying so (spyleague.core.jobs.jobs_sweep); and
#   every SWEEP_SECONDS, a job queued while the broker was away is sent (jobs.unsent_jobs_sweep).
SWEEP_SECONDS = float(os.environ.get("SPYLEAGUE_SWEEP_SECONDS", "5"))
# Where a worker runs, the confirmations of this many seconds share one run of their effects (the
# event's standings, the ratings): see spyleague.scores.effects._queue_run. 0: a run each.
EFFECTS_GATHER_SECONDS = float(os.environ.get("SPYLEAGUE_EFFECTS_GATHER_SECONDS", "1"))
JOB_HEARTBEAT_SECONDS = float(os.environ.get("SPYLEAGUE_JOB_HEARTBEAT_SECONDS", "10"))
JOB_LOST_SECONDS = float(os.environ.get("SPYLEAGUE_JOB_LOST_SECONDS", "120"))
JOB_SWEEP_SECONDS = float(os.environ.get("SPYLEAGUE_JOB_SWEEP_SECONDS", "30"))
JOB_MAX_ATTEMPTS = 3
if JOB_LOST_SECONDS < 3 * JOB_HEARTBEAT_SECONDS:
    raise RuntimeError("SPYLEAGUE_JOB_LOST_SECONDS must be at least three heartbeats long.")
CELERY_BEAT_SCHEDULE = {
    "close-expired-reaction-windows": {
        "task": "spyleague.play.tasks.sweep_timeouts",
        "schedule": 15.0,
    },
    # A sweep not run by its next turn (no worker took it) is dropped: the next one does its work.
    "run-waiting-bots": {
        "task": "spyleague.play.tasks.sweep_bots",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "send-unsent-jobs": {
        "task": "spyleague.core.tasks.sweep_unsent_jobs",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "apply-lost-result-effects": {
        "task": "spyleague.scores.tasks.sweep_effects",
        "schedule": SWEEP_SECONDS,
        "options": {"expires": SWEEP_SECONDS},
    },
    "restart-lost-jobs": {
        "task": "spyleague.core.tasks.sweep_jobs",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
}

# Celery, publishing from the web process: a request that queues follow-up work after its commit
# (a bot's turn, a job: spyleague.core.queue.send_task_safely) answers at once even when the
# broker is away, and the sweeps catch up later. So connecting to the broker gives up after a
# second, a command on a connection that stopped answering after a few, and a send retries once,
# at once; the request itself waits for a send half a second at most (queue.DEADLINE_SECONDS).
# (Worker-side broker options, such as a visibility_timeout, belong in the same dict.)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1.0,
    "socket_timeout": 3.0,
    "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}

# Live updates: published through Redis when it is configured, else read from the database.
REDIS_URL = os.environ.get("REDIS_URL", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "")
# The start of the names of the site's Redis channels and keys. Publish and subscribe ignore
# Redis's database numbers, so two sites (or two test runs) sharing one Redis need prefixes of
# their own.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "spyleague")

# What one address may do (spyleague.core.throttles): sign-ups, password checks (the login page,
# the admin's, the API's token for a username and password) and new API tokens, each so many in
# a period ("10/h": ten an hour; "30/10m": thirty in ten minutes; s, m, h or d). Past it, a 429
# saying when to try again. The counts are kept in the "throttle" cache: with Redis, in Redis, so
# every web process counts together (a Redis away lets requests through, after half a second at
# most); without it, in each process's memory.
SPYLEAGUE_RATES = {
    "signup": os.environ.get("SPYLEAGUE_RATE_SIGNUP", "20/h"),
    "password": os.environ.get("SPYLEAGUE_RATE_PASSWORD", "60/10m"),
    "token": os.environ.get("SPYLEAGUE_RATE_TOKEN", "20/h"),
}
# What one account may make (spyleague.core.limits): the site's staff are not counted.
SPYLEAGUE_QUOTAS = {
    "clubs_per_account": int(os.environ.get("SPYLEAGUE_QUOTA_CLUBS", "10")),  # clubs it organises
    "leagues_per_club": int(os.environ.get("SPYLEAGUE_QUOTA_LEAGUES", "100")),
    "scorepads_per_day": int(os.environ.get("SPYLEAGUE_QUOTA_SCOREPADS", "50")),  # not for tables
    # A 1,000-player day's file of guests fits: an open is entered by its organiser in a day.
    "guests_per_club_per_day": int(os.environ.get("SPYLEAGUE_QUOTA_GUESTS", "2000")),
}
CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"},
}
if REDIS_URL:
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    CACHES["throttle"] = {
        "BACKEND": "spyleague.core.cache.RedisCache",  # Django's, one pool of connections a process
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_PREFIX}:throttle",
        # No retries: a request waits on the count half a second at most (queue.within_deadline),
        # and a Redis that did not answer is left alone for a while; the request goes through.
        "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0, "retry": Retry(NoBackoff(), 0)},
    }
    # The pages' rendered parts and their version numbers (spyleague.core.cache), shared by every
    # web process. A Redis that is away or slow costs a page half a second once, then is left
    # alone for a few seconds: the pages are rendered for each reader meanwhile.
    CACHES["default"] = {
        "BACKEND": "spyleague.core.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"{REDIS_PREFIX}:cache",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "retry": Retry(NoBackoff(), 0)},
    }
# Whether the heavy parts of the pages many read (an event's standings, tables and entrants) are
# kept rendered (spyleague.core.cache): by default where the cache is shared (Redis). Without it
# each process would keep versions of its own, which another process's writes do not move.
SPYLEAGUE_PAGE_CACHE = env_bool("SPYLEAGUE_PAGE_CACHE", bool(REDIS_URL))
# Sessions in the database, read from that cache when it is on (Django's cached_db, failing open).
SESSION_ENGINE = "spyleague.core.sessions"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "spyleague.core.auth.TokenAuthentication",  # DRF's, the token read with its user's player
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "spyleague.api.parsers.JSONParser",
        "spyleague.api.parsers.FormParser",
        "spyleague.api.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "spyleague.api.pagination.LimitOffsetPage",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "spyleague.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Spy League API",
    "DESCRIPTION": "Clubs, events, pairings, results, standings, ratings, score sheets and online matches.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a "status"; name the scorepad's (the rest are told apart by their component).
    "ENUM_NAME_OVERRIDES": {"ScorepadStatusEnum": "spyleague.scores.models.Scorepad.Status"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "spyleague.api.errors.conflicts_documented",
    ],
}

# Production hardening, driven by the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SECURE_HSTS_SECONDS >= 31536000)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (Django's own middleware). Scripts come only from the site's static
# files, or from an inline <script> that carries the request's nonce ({% csp_nonce_attr %}):
# no eval, no inline event handlers (htmx runs with allowEval off, see base.html). Stylesheets
# the same way. Style *attributes* are allowed (style-src-attr): pages draw their data with them
# (bar widths, player colours, a piece's place on a board); an attribute cannot run script nor
# select other elements, and default-src 'self' keeps it from loading anything from elsewhere.
# The API docs pages (Swagger UI, ReDoc) run under this policy too, with nonces in their templates
# (templates/drf_spectacular/).
SECURE_CSP: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "style-src-attr": [CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# ReDoc (/api/redoc/) needs more, on its page alone (spyleague/urls.py): its bundle adds <style>
# elements as it loads, before it can be given the nonce; it builds its search index in a worker
# made from a blob; and it shows Redocly's logo from Redocly's site. Scripts stay as strict.
API_REDOC_CSP: dict[str, list[str]] = {
    **SECURE_CSP,
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "worker-src": [CSP.SELF, "blob:"],
    "img-src": [CSP.SELF, "data:", "https://cdn.redoc.ly"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery.app.trace": {"level": "WARNING"},
        # The memos' report, when asked for (SPYLEAGUE_MEMO_REPORT_SECONDS), whatever LOG_LEVEL says.
        "spyleague.core.memory": {"level": "INFO"},
    },
}

# Online play: how long a reaction window (a foil, a challenge) stays open.
PLAY_REACTION_SECONDS = int(os.environ.get("PLAY_REACTION_SECONDS", "20"))
SPECTACULAR_SETTINGS.update(
    {"SWAGGER_UI_DIST": "SIDECAR", "SWAGGER_UI_FAVICON_HREF": "SIDECAR", "REDOC_DIST": "SIDECAR"}
)
