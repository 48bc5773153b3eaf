"""Read and validate catalog JSON files; a bad entry names file, entry and field."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from pydantic import ValidationError

from core.catalog.catalog import Catalog
from core.errors import CatalogError, validation_message
from core.models.parts import PART_TYPES, Part

CATALOG_PACKAGE = "resources.catalog"


def parse_catalog_file(name: str, text: str) -> list[Part]:
    """Validate one catalog file's text; ``name`` is used in messages."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise CatalogError(
            f"{name}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
        raise CatalogError(f"{name}: expected an object with 'category' and an 'entries' list")
    category = document.get("category")
    model = PART_TYPES.get(category) if isinstance(category, str) else None
    if model is None:
        raise CatalogError(
            f"{name}: unknown category {category!r}; expected one of {sorted(PART_TYPES)}"
        )
    parts: list[Part] = []
    for index, entry in enumerate(document["entries"]):
        label = entry.get("id") if isinstance(entry, dict) else None
        where = f"{name}: entry {label!r}" if label else f"{name}: entry #{index}"
        try:
            parts.append(model.model_validate(entry).with_newest_prices())
        except ValidationError as error:
            raise CatalogError(f"{where}: {validation_message(error)}") from None
    return parts


def load_catalog_files(files: Iterable[Path | Traversable]) -> Catalog:
    """Build a catalog from explicit files (used by tests and by ``load_catalog``)."""
    parts: list[Part] = []
    for file in sorted(files, key=lambda f: f.name):
        parts.extend(parse_catalog_file(file.name, file.read_text(encoding="utf-8")))
    dates = [p.price.as_of for p in parts if p.price.as_of is not None]
    return Catalog(parts, snapshot_date=max(dates).isoformat() if dates else None)


@lru_cache(maxsize=1)
def load_gpus() -> Catalog:
    """The bundled catalog's GPUs alone (``rigforge predict --gpu`` needs no other part)."""
    root = resources.files(CATALOG_PACKAGE)
    return load_catalog_files(f for f in root.iterdir() if f.name.startswith("gpu-"))


@lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The bundled catalog, validated once per process."""
    root = resources.files(CATALOG_PACKAGE)
    return load_catalog_files(f for f in root.iterdir() if f.name.endswith(".json"))
