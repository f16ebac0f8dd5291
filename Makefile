# ramiscore: `make run` to play, `make test` to check everything.
VENV    := .venv
PY      := $(VENV)/bin/python
PYTHON  ?= python3.11
# The development fallback secret and plain-HTTP cookies need DEBUG on; production sets
# DJANGO_DEBUG=False with a real DJANGO_SECRET_KEY (see README.md).
export DJANGO_DEBUG ?= True

.PHONY: run lan test test-redis test-production lint bench bench-home bench-page bench-record load messages

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) manage.py migrate --no-input
	$(PY) manage.py createcachetable
	@# The task runner renders the PDFs (games/tasks.py): it starts with the server and stops
	@# with it (Ctrl-C reaches both; the trap ends the worker whatever ends the server).
	$(PY) manage.py db_worker --no-reload & worker=$$!; \
		trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
		$(PY) manage.py runserver 127.0.0.1:8000

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) manage.py check
	$(VENV)/bin/pytest -m "not production"

# What keeps state between requests, against the Redis of REDIS_URL (redis://…): the cache
# and its render lock, the limits, and two gunicorn servers sharing it.
REDIS_TESTS := tests/ramiscore/test_settings_redis.py tests/games/views/test_sheet_cache.py \
	tests/games/test_cache_places.py \
	tests/games/display/test_sheet.py tests/games/test_follow_gate.py \
	tests/security/test_login_throttle.py tests/security/test_cost_limits.py \
	tests/security/test_two_servers.py
test-redis: $(VENV)/.installed-dev
	@test -n "$(REDIS_URL)" || { echo "REDIS_URL is not set (redis://127.0.0.1:6379/0)"; exit 1; }
	$(VENV)/bin/pytest $(REDIS_TESTS)

# ramiscore as deployed: DEBUG off, collectstatic, gunicorn.conf.py, deploy/Caddyfile over
# HTTPS, Chromium through it (tests/production/).
test-production: $(VENV)/.installed-dev
	$(VENV)/bin/pytest -m production tests/production

# The home wifi: the phones at the table open the printed address or scan its QR code.
lan: $(VENV)/.installed
	$(PY) manage.py migrate --no-input
	$(PY) manage.py createcachetable
	$(PY) -m tools.lan

bench: $(VENV)/.installed-dev
	$(PY) -m bench

# The home page of 2 and of 200 parties only (bench/home.py): a minute or two, not the whole bench.
bench-home: $(VENV)/.installed-dev
	$(PY) -m bench.home

# The partie page of 4x20, 7x300 and 7x1000 and the floor only (bench/page.py): a few minutes.
bench-page: $(VENV)/.installed-dev
	$(PY) -m bench.page

# Recording a donne on 4x20 (drawn and not) and the floor only, interleaved (bench/record.py).
bench-record: $(VENV)/.installed-dev
	$(PY) -m bench.record

$(VENV)/.installed-load: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev,load]'
	touch $@ $(VENV)/.installed-dev $(VENV)/.installed

# The evening's load test: PostgreSQL, Redis, two gunicorn servers and Caddy on this machine,
# Locust playing a thousand tables (bench/evening/). Needs Debian's postgresql, redis-server
# and caddy; writes bench/results/evening.json.
load: $(VENV)/.installed-load
	$(PY) -m bench.evening

# French is the source language: refresh locale/en/LC_MESSAGES/django.po (the engine's N_
# markers included), translate what is new, then commit the .po and the compiled .mo. The
# French catalog holds only French's plural rule for the plural msgids (tools/french_plurals.py).
MAKEMESSAGES = $(PY) manage.py makemessages --keyword=N_ --no-obsolete \
	--ignore=.venv --ignore=staticfiles --ignore=bench --ignore=tests --ignore=docs \
	--ignore=screenshots --ignore=build
messages: $(VENV)/.installed
	$(MAKEMESSAGES) -l en
	$(MAKEMESSAGES) -l fr
	$(PY) -m tools.french_plurals
	$(PY) manage.py compilemessages --ignore=.venv
