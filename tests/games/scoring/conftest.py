"""Shared helpers for the scoring tests: pure Python, nothing Django-related."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EXAMPLES_PATH = Path(__file__).resolve().parents[2] / "data" / "examples.json"


def load_examples() -> dict[str, Any]:
    return json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def examples() -> dict[str, Any]:
    return load_examples()
