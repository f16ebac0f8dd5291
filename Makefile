# ramiscore: `make run` to play, `make test` to check everything.
VENV    := .venv
PY      := $(VENV)/bin/python
PYTHON  ?= python3.11
# The development fallback secret and plain-HTTP cookies need DEBUG on; production sets
# DJANGO_DEBUG=False with a real DJANGO_SECRET_KEY (see README.md).
export DJANGO_DEBUG ?= True

.PHONY: run test lint bench messages

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
	$(VENV)/bin/pytest

bench: $(VENV)/.installed-dev
	$(PY) -m bench

# French is the source language: refresh locale/en/LC_MESSAGES/django.po (the engine's N_
# markers included), translate what is new, then commit the .po and the compiled .mo.
messages: $(VENV)/.installed
	$(PY) manage.py makemessages -l en --keyword=N_ --no-obsolete \
		--ignore=.venv --ignore=staticfiles --ignore=bench --ignore=tests --ignore=docs \
		--ignore=screenshots --ignore=build
	$(PY) manage.py compilemessages --ignore=.venv
