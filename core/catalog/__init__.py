"""The bundled hardware catalog: loaded and validated once, looked up by id or alias."""

from core.catalog.catalog import Catalog, normalise_name
from core.catalog.loader import load_catalog, load_catalog_files, load_gpus

__all__ = ["Catalog", "load_catalog", "load_catalog_files", "load_gpus", "normalise_name"]
