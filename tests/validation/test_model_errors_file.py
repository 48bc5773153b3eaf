"""The accuracy figures the app shows beside its estimates are the model's own."""

from __future__ import annotations

import json
from importlib import resources

from tools.fit.model_errors import model_errors


def test_shipped_model_errors_match_the_model_in_force() -> None:
    shipped = json.loads(
        resources.files("resources.benchmarks").joinpath("model_errors.json").read_text("utf-8")
    )
    assert shipped == model_errors(), "run: python -m tools.fit.model_errors"
    assert shipped["rows"] == 1673
