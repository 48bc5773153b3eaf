"""Load the shipped workload presets and resolve names the way benchmark tables write them."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from core.errors import InvalidWorkload, LookupFailed, validation_message
from core.models.workload import Workload, WorkloadPreset

PRESET_FILE = "presets.json"


def _key(name: str) -> str:
    """Normalize a name: lowercase, letters and digits only ("ResNet-50 v1.5" -> "resnet50v15")."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def load_presets() -> tuple[WorkloadPreset, ...]:
    """All presets in ``resources/workloads/presets.json``, validated once."""
    text = resources.files("resources.workloads").joinpath(PRESET_FILE).read_text("utf-8")
    raw = json.loads(text)
    presets = []
    for index, entry in enumerate(raw["presets"]):
        try:
            presets.append(WorkloadPreset.model_validate(entry))
        except ValidationError as error:
            where = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
            raise InvalidWorkload(f"{PRESET_FILE}: preset {where}: {error}") from error
    return tuple(presets)


@cache
def _index() -> dict[str, WorkloadPreset]:
    index: dict[str, WorkloadPreset] = {}
    for preset in load_presets():
        for name in (preset.id, preset.name, *preset.aliases):
            index.setdefault(_key(name), preset)
    return index


def find_preset(name: str) -> WorkloadPreset:
    """The preset whose id, name or alias matches ``name`` (case and punctuation ignored).

    Raises ``LookupFailed`` with close matches (difflib) when nothing matches.
    """
    preset = _index().get(_key(name))
    if preset is not None:
        return preset
    names = [n for p in load_presets() for n in (p.name, *p.aliases)]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    if not close:
        keyed = {_key(n): n for n in names}
        close = [
            keyed[k] for k in difflib.get_close_matches(_key(name), list(keyed), n=3, cutoff=0.5)
        ]
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise LookupFailed(f"unknown workload {name!r}{hint}")


def make_workload(preset: WorkloadPreset, **settings: Any) -> Workload:
    """A ``Workload`` from a preset; impossible settings raise ``InvalidWorkload`` (with reason)."""
    fields: dict[str, Any] = {
        "name": preset.name,
        "preset_id": preset.id,
        "architecture": preset.architecture,
        "task": preset.default_task,
        "batch_size": preset.default_batch_size,
    }
    fields.update({k: v for k, v in settings.items() if v is not None})
    try:
        return Workload.model_validate(fields)
    except ValidationError as error:
        raise InvalidWorkload(validation_message(error)) from None
