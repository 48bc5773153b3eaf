"""The bundled prebuilt systems (``resources/systems/systems.json``), resolved by name."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources

from pydantic import ValidationError

from core.errors import LookupFailed, RigForgeError, validation_message
from core.models.system import System

SYSTEMS_FILE = "systems.json"


@cache
def load_systems() -> tuple[System, ...]:
    """Every system, validated once, each at its newest dated price."""
    text = resources.files("resources.systems").joinpath(SYSTEMS_FILE).read_text("utf-8")
    systems = []
    for index, entry in enumerate(json.loads(text)["systems"]):
        try:
            systems.append(System.model_validate(entry).with_newest_price())
        except ValidationError as error:
            where = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
            message = f"{SYSTEMS_FILE}: system {where}: {validation_message(error)}"
            raise RigForgeError(message) from None
    return tuple(systems)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def find_system(name: str) -> System:
    """The system ``name`` names (id, name or alias, ignoring case and punctuation); the
    first of a family's configurations for a shared alias ("Mac Studio M3 Ultra")."""
    wanted = _key(name)
    for system in load_systems():
        if wanted in (_key(system.id), _key(system.name), *map(_key, system.aliases)):
            return system
    names = [s.name for s in load_systems()] + [a for s in load_systems() for a in s.aliases]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise LookupFailed(f"no system named {name!r}{hint} (rigforge predict --list-systems)")
