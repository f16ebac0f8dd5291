"""gunicorn's settings for ramiscore. gunicorn reads this file from the directory it starts in,
so the README's command line is only `gunicorn` (docs/deploy.md). Every value can be changed
from the environment, as the app's own settings are.

The proxy question is answered once, by DJANGO_TRUSTED_PROXIES, for gunicorn and Django alike:
- 0 (no proxy): gunicorn believes no X-Forwarded-* header from anyone. Its default believes
  them from 127.0.0.1, so a plain-http request carrying `X-Forwarded-Proto: https` would get
  HSTS and https share links.
- N > 0: only the proxy's addresses (FORWARDED_ALLOW_IPS, loopback by default) may send them;
  from any other peer they are dropped before Django sees them (pre_request below), because
  Django, told a proxy is there, believes X-Forwarded-Proto and X-Forwarded-For as they come.
"""

from __future__ import annotations

import os


def _env(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


wsgi_app = "ramiscore.wsgi"
bind = _env("GUNICORN_BIND", "127.0.0.1:8001")
workers = int(_env("WEB_CONCURRENCY", "3"))
# A marque PDF takes a second or two; a worker silent for longer than this is stuck: killed
# and replaced. Graceful: the time a restart (upgrade) leaves a request to finish.
timeout = int(_env("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(_env("GUNICORN_GRACEFUL_TIMEOUT", "30"))

TRUSTED_PROXIES = int(_env("DJANGO_TRUSTED_PROXIES", "0"))
PROXY_ADDRESSES = [a.strip() for a in _env("FORWARDED_ALLOW_IPS", "127.0.0.1,::1").split(",")]
forwarded_allow_ips = ",".join(PROXY_ADDRESSES) if TRUSTED_PROXIES else ""
# Only the header that deploy/Caddyfile and deploy/nginx.conf set (and overwrite). gunicorn's
# default also reads X-Forwarded-Ssl and X-Forwarded-Protocol, which those proxies pass on as
# the client wrote them: a client could make a request https, or, contradicting the proxy's
# X-Forwarded-Proto, get a 400.
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}

FORWARDED = {"X-FORWARDED-FOR", "X-FORWARDED-PROTO", "X-FORWARDED-SSL", "X-FORWARDED-PROTOCOL"}


def from_proxy(peer: object) -> bool:
    # A Unix socket has no address: only what may open it (the proxy) talks to gunicorn.
    if not TRUSTED_PROXIES:
        return False
    return "*" in PROXY_ADDRESSES or not isinstance(peer, tuple) or peer[0] in PROXY_ADDRESSES


def pre_request(worker, req) -> None:
    if not from_proxy(req.peer_addr):
        req.headers = [(name, value) for name, value in req.headers if name not in FORWARDED]


# Logs on the standard streams (systemd's journal or the container's log); the access line
# names the visitor as the proxy reported it.
accesslog = _env("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = _env("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s %({x-forwarded-for}i)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s"'


def post_worker_init(worker) -> None:
    """The application is loaded (Django, its models, the engine): what it made is kept out of
    the garbage collector's reach (``gc.freeze``), so that its full passes walk only what the
    requests make since. Under the evening's load a full pass over the hundred thousand
    objects of a loaded worker held a request for 100 to 360 ms (README "An evening")."""
    import gc

    gc.collect()
    gc.freeze()
