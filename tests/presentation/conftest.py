"""Fixtures of the presentation tests: the variant games' configuration (variants.py)."""

from __future__ import annotations

import pytest

from reporting.config.loader import OperatorConfig, load_config
from tests.presentation.variants import VARIANTS_TOML


@pytest.fixture(scope="session")
def variant_config(tmp_path_factory) -> OperatorConfig:
    """The variant games' configuration (:data:`VARIANTS_TOML`)."""
    path = tmp_path_factory.mktemp("variants") / "operator.toml"
    path.write_text(VARIANTS_TOML, encoding="utf-8")
    return load_config(path)
