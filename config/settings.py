"""One settings module, configured by environment variables.

With nothing set the platform runs embedded on one machine: SQLite under
`var/`, the in-memory channel layer, Celery on kombu's filesystem transport
(a real worker process, no server). `DATABASE_URL`, `REDIS_URL` and
`CELERY_BROKER_URL` switch to PostgreSQL, channels_redis and a Redis broker.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.secret_key import local_secret_key
from ops.conf import default_allowed
from ops.errors import sentry_init
from ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


# Keys that were once the default in this repository: anyone can sign with them.
_PUBLISHED_KEYS = frozenset({"dev-only-insecure-key-set-SECRET_KEY-in-production"})


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
# The production configuration is the one on PostgreSQL or Redis (DATABASE_URL or REDIS_URL set):
# processes on several machines cannot share a generated file, so SECRET_KEY must be given. The
# embedded default (neither set) generates its key once into VAR_DIR (config/secret_key.py), shared
# by bin/run's web process and worker. No key is ever written in the source.
PRODUCTION = bool(os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL"))
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if SECRET_KEY in _PUBLISHED_KEYS:
    raise ImproperlyConfigured("SECRET_KEY is a key published in this project's source: set a long random one")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: the production configuration (DATABASE_URL or REDIS_URL set) needs one, "
            "the same long random string for every web process and worker"
        )
    SECRET_KEY = local_secret_key(VAR_DIR / "secret_key")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "games",
    "replays",
    "stats",
    "tournaments",
    "ops",
    "moderation",
    "matchmaking",
    "people",
]

MIDDLEWARE = [
    "web.middleware.RefuseUnstorableText",  # NUL in a URL or header: 400 before anything reads it
    "django.middleware.security.SecurityMiddleware",
    "web.csp.ContentSecurityPolicy",  # script-src 'self' on every response (web/csp.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",  # a logged-in account's language over the cookie's
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"


TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # A game's templates are in its own folder (games/<slug>/templates/), found through the
            # registry (games/game_files.py): settings name no game, a game registered at run time is served.
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "games.game_files.GameTemplateLoader",
                        "django.template.loaders.app_directories.Loader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # A psycopg pool per process, connections handed back after every request and every
    # database_sync_to_async call. Persistent connections (CONN_MAX_AGE) leaked one per dead
    # thread under ASGI (71 after 1,200 REST calls) and cost a health-check round trip per call.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "1")),
            "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "16")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
        }
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "db.sqlite3")),
            # Writes serialise on SQLite; wait for the lock instead of failing.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a log-in while its (account, address) pair cools off (admin log-in too).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "games.game_files.GameStaticFinder",  # games/<slug>/static/ of every registered game
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: one PUBLISH per group message and one delivery per web process. The list-based
            # core layer pops every socket's copy in turn (~4 Redis round trips each, one at a time per
            # process) and fell seconds behind at 200 tables (docs/performance.md). A message lost while
            # Redis is away is no loss: consumers fill seq gaps from the database, clients can `sync`.
            # live/pubsub_layer.py: this process's own sockets hear its sends at once, not via Redis.
            "BACKEND": "live.pubsub_layer.LocalFirstPubSubChannelLayer",
            # socket_timeout: redis-py's 5 s default raced blocking reads under load ("Timeout reading from").
            # Pub/sub channels ignore Redis's database numbers: the prefix carries it, so deployments
            # (and test stacks) on one Redis server but different databases stay apart.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                "prefix": f"asgi{urlsplit(REDIS_URL).path.strip('/') or '0'}",
            },
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    # Embedded default: the layer lives in the one web process. The Celery worker bin/run starts gets
    # CHANNEL_RELAY_URL and a layer whose group sends go there, signed (live/relay_layer.py); the web
    # process mounts the receiving end (live/relay_endpoint.py, config/urls.py) only in this case.
    CHANNEL_RELAY_URL = os.environ.get("CHANNEL_RELAY_URL", "")
    if CHANNEL_RELAY_URL:
        CHANNEL_LAYERS = {"default": {"BACKEND": "live.relay_layer.RelayChannelLayer", "CONFIG": {"url": CHANNEL_RELAY_URL}}}
    else:
        CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The web process of the embedded default accepts relayed group messages (never with Redis).
CHANNEL_RELAY_ENDPOINT = CHANNEL_LAYERS["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "") or REDIS_URL or "safefs://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
if CELERY_BROKER_URL.startswith(("safefs://", "filesystem://")):
    _queue = VAR_DIR / "celery" / "queue"
    _processed = VAR_DIR / "celery" / "processed"
    _queue.mkdir(parents=True, exist_ok=True)
    _processed.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(_processed),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
        "polling_interval": 0.05,
    }
else:
    # Must exceed the longest countdown a worker holds (turn and zombie timers: 10 min): Redis hands a
    # task unacknowledged this long to another worker, even one a live worker is still waiting on.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Recovery does not come from the broker. A task a killed worker held (a countdown) comes back only
# after visibility_timeout, one it was running not at all (acks_late off), and a flushed or restarted
# Redis loses the queue: the database says what is owed, and beat's sweepers do it within seconds
# (sweep_timers: PendingTimer rows; sweep_bots: silent bot tables; sweep_presence). acks_late on
# would only add a stale second run an hour later, which every task ignores anyway (seq, action ids).
CELERY_TASK_ACKS_LATE = False
# On PostgreSQL a table socket's action is decided on the state this process last committed and sent in
# one message from the event loop by psycopg's async driver (live/async_db.py, games/services/match_cache.py), at
# most DB_ASYNC_POOL_SIZE connections per web process; the embedded SQLite default takes the locked path.
DB_ASYNC_POOL_SIZE = int(os.environ.get("DB_ASYNC_POOL_SIZE", "8"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "web.api_errors.exception_handler",
    # Bodies read by live.wire: size, depth, storable text, finite numbers (400 `bad_json`).
    "DEFAULT_PARSER_CLASSES": ["web.parsers.JSONParser", "web.parsers.FormParser", "web.parsers.MultiPartParser"],
    # Behind TRUSTED_PROXY_COUNT proxies, like accounts.throttling.client_address (DRF's default trusts
    # any X-Forwarded-For a client sends).
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXY_COUNT", "0")),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card tables API",
    "DESCRIPTION": "REST part of shared/design/PROTOCOL.md: accounts, games, tables, matches and replays.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the installed sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Platform knobs.
ZOMBIE_SECONDS_DEFAULT = 45
# A tournament table with a person at it is dealt when every person has come to it, or this many seconds
# after it was seated (docs/configuration.md); 0 deals at once. The no-show time counts from the deal.
TOURNAMENT_SEAT_GRACE_SECONDS = int(os.environ.get("TOURNAMENT_SEAT_GRACE_SECONDS", "60"))
CHAT_MAX_LENGTH = 300
CHAT_MAX_PER_10S = 5
WS_MAX_MESSAGE_BYTES = 4096
# Per socket; a benchmark driving one socket faster than a person can raises it (tools/loadtest/versus.py).
WS_MAX_ACTIONS_PER_SECOND = int(os.environ.get("WS_MAX_ACTIONS_PER_SECOND", "20"))
# Limits (docs/security.md "Limits"): open sockets per account and per address on one web process, and
# messages per second per account and per address across all their sockets of the process (each socket
# also has its own WS_MAX_ACTIONS_PER_SECOND). A socket past a cap is refused with close code 4429.
WS_MAX_SOCKETS_PER_USER = int(os.environ.get("WS_MAX_SOCKETS_PER_USER", "20"))
WS_MAX_SOCKETS_PER_ADDRESS = int(os.environ.get("WS_MAX_SOCKETS_PER_ADDRESS", "60"))
WS_USER_MESSAGES_PER_SECOND = int(os.environ.get("WS_USER_MESSAGES_PER_SECOND", "40"))
WS_ADDRESS_MESSAGES_PER_SECOND = int(os.environ.get("WS_ADDRESS_MESSAGES_PER_SECOND", "120"))
# Live matches of bots only that one account may host at once (more: 409).
MAX_BOT_MATCHES_PER_HOST = int(os.environ.get("MAX_BOT_MATCHES_PER_HOST", "3"))
# Sessions end everywhere (live/sessions.py): besides the fan-out at log-out, a password change or a ban,
# every web process re-checks its sockets' credentials this often (seconds; 0: never).
SESSION_RECHECK_SECONDS = float(os.environ.get("SESSION_RECHECK_SECONDS", "5"))
# Fair races: every table socket is pinged this often (after a quick warm-up) to measure its round trip; 0: never.
WS_PING_SECONDS = float(os.environ.get("WS_PING_SECONDS", "2"))
# Fair play (PROTOCOL.md, docs/deployment-round-trips.md): the round trip a race uses is at most the
# transport's own (the kernel's TCP round trip here, or a trusted proxy's X-Proxy-Tcp-Rtt-Us); pongs more than
# RTT_SLACK_MS above it count as `rtt_inflated`. TRUSTED_PROXIES: addresses or networks (and "unix") of the
# deployment's proxies, the only peers whose header is believed. Without any bound, pongs count for at
# most RTT_UNBOUNDED_CAP_MS (0: such a socket's claims are judged on arrival).
RTT_SLACK_MS = int(os.environ.get("RTT_SLACK_MS", "40"))
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
RTT_UNBOUNDED_CAP_MS = int(os.environ.get("RTT_UNBOUNDED_CAP_MS", "0"))
MIN_REACTION_MS_DEFAULT = int(os.environ.get("MIN_REACTION_MS_DEFAULT", "100"))

# Who is asking (accounts/throttling.py): REMOTE_ADDR, or behind n proxies of ours the address the
# outermost saw (n-th entry from the right of X-Forwarded-For). 0 unless such proxies set that header.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# Failed log-ins (django-axes, accounts/services.py login_check): per (account, address) pair, so
# nobody can lock another person out from elsewhere; the pair cools off LOGIN_COOLOFF_SECONDS after
# its last failure, and a successful log-in clears it.
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURES_ALLOWED", "5"))
AXES_COOLOFF_TIME = dt.timedelta(seconds=int(os.environ.get("LOGIN_COOLOFF_SECONDS", "900")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "accounts.throttling.client_address"
AXES_USERNAME_CALLABLE = "accounts.throttling.login_username"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # no row per successful log-in: nothing here reads them, nothing would prune them
# The log-in page and POST /api/auth/token/ answer a lock-out themselves (form error, JSON 429), so
# axes' middleware, which would replace those answers with its own, is not installed.
SILENCED_SYSTEM_CHECKS = ["axes.W002"]
# Request rates per address (DRF's throttle, accounts/throttling.py), "count/second|minute|hour|day".
LOGIN_RATE = os.environ.get("LOGIN_RATE", "30/hour")  # log-in attempts, any names: a higher, per-address brake
SIGNUP_RATE = os.environ.get("SIGNUP_RATE", "5/hour")
# API tokens stop working at this age; POST /api/auth/token/ then issues a fresh one. Log-out deletes them.
TOKEN_MAX_AGE_SECONDS = int(os.environ.get("TOKEN_MAX_AGE_SECONDS", str(30 * 24 * 3600)))
# Open (not started) tables one person may host at once (games/services/tables.py table_create, 409 too_many_tables).
MAX_OPEN_TABLES_PER_USER = int(os.environ.get("MAX_OPEN_TABLES_PER_USER", "5"))


def email_settings(url: str) -> dict[str, object]:
    """Django's mail settings from `EMAIL_URL`: `smtp://user:pass@host:587/?tls=1` (STARTTLS),
    `smtps://...` or `?ssl=1` (TLS from the start), `?timeout=S`; user and password %-encoded. Empty:
    the console backend, which prints every mail to the log (the embedded default needs no mail server)."""
    if not url:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    from urllib.parse import parse_qs, unquote

    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured(f"EMAIL_URL must be smtp:// or smtps://, not {parts.scheme or url!r}")
    query = {k: v[-1].strip().lower() for k, v in parse_qs(parts.query).items()}
    ssl = parts.scheme == "smtps" or query.get("ssl") in {"1", "true", "yes", "on"}
    tls = not ssl and query.get("tls") in {"1", "true", "yes", "on"}
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
        "EMAIL_TIMEOUT": float(query.get("timeout", "10")),
    }


# Mail (accounts/mail.py, sent by the accounts.send_mail Celery task): docs/configuration.md.
_email = email_settings(os.environ.get("EMAIL_URL", "").strip())
EMAIL_BACKEND = str(_email.pop("EMAIL_BACKEND"))
globals().update(_email)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Card tables <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(3 * 3600)))  # a reset link's life, seconds
PASSWORD_RESET_RATE = os.environ.get("PASSWORD_RESET_RATE", "10/hour")  # reset requests per address (page and API)

# Operations (ops/, docs/operations.md). Logs: UTC-timestamped lines on stderr, one JSON object
# a line with LOG_FORMAT=json (ops/logs.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower()
LOGGING = logging_config(level=os.environ.get("LOG_LEVEL", "WARNING"), fmt=LOG_FORMAT)
# /metrics readers (ops/access.py) besides staff users and `Authorization: Bearer <METRICS_TOKEN>`:
# IPs or CIDR networks, comma-separated; loopback on the embedded default, nobody in production.
METRICS_ALLOWED = os.environ.get("METRICS_ALLOWED", default_allowed(production=PRODUCTION))
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
# /health/ready/ (ops/checks.py): how long the database, the channel layer and the broker may take to answer.
READY_TIMEOUT_SECONDS = float(os.environ.get("READY_TIMEOUT_SECONDS", "2"))
# Error reporting (ops/errors.py) only when SENTRY_DSN is set, in web processes and Celery workers alike.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
sentry_init(
    dsn=SENTRY_DSN,
    environment=os.environ.get("SENTRY_ENVIRONMENT", "production" if PRODUCTION else "embedded"),
    release=os.environ.get("SENTRY_RELEASE"),
    traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
)

# Presence (live/heartbeat.py): each web process refreshes its row every HEARTBEAT seconds; its
# sockets count as connected while that row is younger than LEASE. A dead process's players are away
# from its last beat: zombies after max(zombie_seconds, LEASE) + one sweep (5 s) at the latest.
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "3"))
PRESENCE_LEASE_SECONDS = float(os.environ.get("PRESENCE_LEASE_SECONDS", "10"))

# Fair races (docs/fair-races.md): of each table's lag_cap_ms, this much is kept for settling and
# delivering a race result, so that it reaches the screens within lag_cap_ms of the first claim.
RACE_SETTLE_MARGIN_MS = int(os.environ.get("RACE_SETTLE_MARGIN_MS", "15"))

CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-timers": {"task": "games.sweep_timers", "schedule": 5.0},
    "sweep-presence": {"task": "games.sweep_presence", "schedule": 5.0},
    # Bot tables silent for 10 s plan again: a plan lost with a worker or the broker costs seconds.
    "sweep-stalled-bots": {"task": "games.sweep_bots", "schedule": 5.0},
    # Fired timer rows and those of finished matches: nothing reads them (games.services.timers.timers_prune).
    "prune-fired-timers": {"task": "games.prune_timers", "schedule": 60.0},
    # The matchmaking queue: waiting players are seated as their rating bands widen (matchmaking.pairing).
    "matchmaking-sweep": {"task": "matchmaking.sweep", "schedule": 5.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
