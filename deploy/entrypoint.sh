#!/bin/sh
# The container's entrypoint (Dockerfile), also usable on a plain server: bring the database
# up to date, make the cache table, then run the command (gunicorn by default). Safe on every
# start: both steps do nothing when there is nothing to do. With several app containers, let
# one migrate and start the others with RAMISCORE_SKIP_MIGRATE=1 (two migrate runs at once
# are not safe).
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
if [ "${RAMISCORE_SKIP_MIGRATE:-0}" != "1" ]; then
  "$PYTHON" manage.py migrate --no-input
  "$PYTHON" manage.py createcachetable
fi
exec "$@"
