"""The bundled table of on-demand cloud GPU rates (resources/cloud/cloud_rates.json)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from core.models.cost import CloudRateTable


@cache
def load_cloud_rates() -> CloudRateTable:
    """Dated, sourced hourly rates per GPU, validated once per process."""
    text = resources.files("resources").joinpath("cloud/cloud_rates.json").read_text("utf-8")
    return CloudRateTable.model_validate(json.loads(text))
