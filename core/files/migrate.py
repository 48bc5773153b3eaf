"""Upgrade older RigForge documents to the current version, one step at a time.

Version history:

1. A single build whose parts are catalog ids only (``"gpu": "rtx-4090"``),
   under the key ``build``; drives as ``{"drive": id, "count": n}``.
2. ``builds`` (one or several, ``kind`` build/comparison); each part is
   ``{"id": ..., "snapshot": {...}}``; drives as ``{"part": ref, "count": n}``;
   ``baseline`` and ``app_version``.
3. Snapshot keys say the unit they hold: a GPU's ``vram_gb``, a memory kit's
   ``module_gb`` and a CPU's or board's ``max_memory_gb`` were binary gigabytes and are
   now ``vram_gib``, ``module_gib`` and ``max_memory_gib`` (same numbers).
4. A build may say where each part is bought (``quotes``: vendor and quote reference),
   the order's ``tax_pct`` and ``shipping_usd``; a part snapshot may carry its dated
   price ``observations``. A version-3 document is a version-4 one as it is.

Each step is a pure function from the dict of version N to version N + 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.errors import FileFormatError
from core.files.document import CURRENT_VERSION, FORMAT_NAME

Raw = dict[str, Any]
_PART_KEYS = ("gpu", "cpu", "motherboard", "memory", "psu", "case")


def _v1_to_v2(doc: Raw) -> Raw:
    build = doc.pop("build", None)
    if not isinstance(build, dict):
        raise FileFormatError("version 1 file: 'build' must be an object")
    record = dict(build)
    for key in _PART_KEYS:
        if isinstance(record.get(key), str):
            record[key] = {"id": record[key]}
    drives = record.get("drives", [])
    if isinstance(drives, list):
        record["drives"] = [
            {"part": {"id": d.get("drive")}, "count": d.get("count", 1)}
            if isinstance(d, dict)
            else d
            for d in drives
        ]
    doc["builds"] = [record]
    doc["kind"] = "build"
    doc["version"] = 2
    return doc


_GIB_KEYS = {"vram_gb": "vram_gib", "module_gb": "module_gib", "max_memory_gb": "max_memory_gib"}


def _gib_keys(snapshot: Any) -> Any:
    if not isinstance(snapshot, dict):
        return snapshot
    return {_GIB_KEYS.get(k, k): v for k, v in snapshot.items()}


def _v2_to_v3(doc: Raw) -> Raw:
    builds = doc.get("builds")
    if isinstance(builds, list):
        upgraded = []
        for record in builds:
            if isinstance(record, dict):
                record = dict(record)
                for key in _PART_KEYS:
                    ref = record.get(key)
                    if isinstance(ref, dict) and "snapshot" in ref:
                        record[key] = ref | {"snapshot": _gib_keys(ref["snapshot"])}
                drives = record.get("drives")
                if isinstance(drives, list):
                    record["drives"] = [
                        d | {"part": d["part"] | {"snapshot": _gib_keys(d["part"]["snapshot"])}}
                        if isinstance(d, dict)
                        and isinstance(d.get("part"), dict)
                        and "snapshot" in d["part"]
                        else d
                        for d in drives
                    ]
            upgraded.append(record)
        doc["builds"] = upgraded
    doc["version"] = 3
    return doc


def _v3_to_v4(doc: Raw) -> Raw:
    return {**doc, "version": 4}


def _v4_to_v5(doc: Raw) -> Raw:
    """Version 5 adds serving settings (experts in host RAM, speculative decoding) and
    architecture fields (linear-attention layers, interleaved MoE, release format), all
    optional: a version-4 document reads as it is."""
    return {**doc, "version": 5}


STEPS: dict[int, Callable[[Raw], Raw]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
}
"""``STEPS[n]`` turns a version-n document into version n + 1."""


def _not_rigforge(doc: Raw) -> str:
    """Why ``doc`` is not a RigForge file, and what one looks like."""
    given = doc.get("format")
    if given is None:
        why = f'not a RigForge file: it has no "format": "{FORMAT_NAME}" entry'
    else:
        why = f'not a RigForge file: its "format" is {str(given)[:40]!r}, not "{FORMAT_NAME}"'
    shape = f'{{"format": "{FORMAT_NAME}", "version": {CURRENT_VERSION}, "builds": [...]}}'
    if "gpu" in doc and "builds" not in doc:
        return f"{why}. It looks like a single build: put it in a file's builds list, {shape}"
    return f"{why}. A RigForge file looks like {shape}; File → Save in the app writes one"


def upgrade(doc: Any) -> Raw:
    """Check the header and upgrade ``doc`` to ``CURRENT_VERSION``."""
    if not isinstance(doc, dict):
        raise FileFormatError("a RigForge file is a JSON object; this one is not")
    if doc.get("format") != FORMAT_NAME:
        raise FileFormatError(_not_rigforge(doc))
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FileFormatError(f"'version' must be a positive integer, not {version!r}")
    if version > CURRENT_VERSION:
        raise FileFormatError(
            f"this file was made by a newer RigForge (format version {version}); "
            f"this RigForge reads versions up to {CURRENT_VERSION}. Please update RigForge."
        )
    upgraded = dict(doc)
    while upgraded["version"] < CURRENT_VERSION:
        upgraded = STEPS[upgraded["version"]](upgraded)
    return upgraded
