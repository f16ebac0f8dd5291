# ramiscore in a container (docs/deploy.md "In containers"): gunicorn on port 8000 behind the
# Caddy of compose.yaml. Build: docker build -t ramiscore .  (or podman build)
FROM python:3.11-slim-bookworm

# WeasyPrint (the marque PDF) draws with Debian's Pango, and needs fonts; no compiler needed:
# every Python dependency has a wheel.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_DEBUG=False \
    DJANGO_STATIC_ROOT=/app/staticfiles \
    GUNICORN_BIND=0.0.0.0:8000

WORKDIR /app
# The dependencies first: a change of code alone reuses this layer.
COPY pyproject.toml ./
RUN mkdir ramiscore games && touch ramiscore/__init__.py games/__init__.py \
    && pip install . && pip uninstall -y ramiscore && rm -rf ramiscore games build
COPY . .

# The static files, hashed and compressed, are part of the image: collectstatic needs no
# secret and no database (ramiscore/settings.py).
RUN python manage.py collectstatic --no-input

# Never root: the app owns nothing but what it must write, the follow marks Caddy reads
# (games/follow_marks.py; a volume shared with Caddy, compose.yaml).
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin ramiscore \
    && install -d -o ramiscore -m 0750 /var/lib/ramiscore/follow-marks
USER ramiscore

EXPOSE 8000
# /sante/ answers over plain http (SECURE_REDIRECT_EXEMPT) and asks nothing of the database.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]

ENTRYPOINT ["deploy/entrypoint.sh"]
# gunicorn reads /app/gunicorn.conf.py (the proxy, the timeouts, the logs).
CMD ["gunicorn"]
