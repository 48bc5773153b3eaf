"""Make a ``Build`` from catalog ids (the bundled default build uses this)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from pydantic import ValidationError

from core.catalog.catalog import Catalog
from core.errors import RigForgeError, validation_message
from core.models.build import PART_FIELDS, Build, DriveSelection


def build_from_ids(catalog: Catalog, spec: dict[str, Any]) -> Build:
    """Resolve the part ids (or aliases) in ``spec`` and validate the build."""
    fields: dict[str, Any] = dict(spec)
    for field, category in PART_FIELDS.items():
        if fields.get(field) is not None:
            fields[field] = catalog.get(str(fields[field]), category)
    fields["drives"] = tuple(
        DriveSelection(drive=catalog.drive(str(d["drive"])), count=int(d.get("count", 1)))
        for d in spec.get("drives", ())
    )
    try:
        return Build.model_validate(fields)
    except ValidationError as error:
        raise RigForgeError(f"invalid build: {validation_message(error)}") from None


def default_build(catalog: Catalog) -> Build:
    """The bundled default build: two RTX 4090s (320 W limit) on a Threadripper PRO 9965WX."""
    text = resources.files("resources.builds").joinpath("default.json").read_text("utf-8")
    return build_from_ids(catalog, json.loads(text))
