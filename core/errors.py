"""Errors core raises for people to read: each message names the problem."""

from __future__ import annotations

from pydantic import ValidationError


class RigForgeError(Exception):
    """Base of every error RigForge reports to users instead of a traceback."""


class CatalogError(RigForgeError):
    """A catalog file or entry is invalid; the message names file, entry and field."""


class LookupFailed(RigForgeError, KeyError):
    """A name or id matched nothing; the message suggests close matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidWorkload(RigForgeError, ValueError):
    """An impossible workload combination, with the reason."""


class FileFormatError(RigForgeError):
    """A file or download is not a valid RigForge document; the message says why."""


class AnalysisFailed(RigForgeError):
    """A build's figures cannot be computed (specs at the edge of float range, say)."""


class FetchError(RigForgeError):
    """A URL could not be loaded; the message names the cause (timeout, size, type...)."""


def validation_message(error: ValidationError, *, prefix: str = "") -> str:
    """One line for people from a pydantic error: where (field path) and what is wrong.

    The one formatter every reader of files, feeds, catalogs and edits uses.
    """
    first = error.errors()[0]
    where = field_words(prefix.rstrip(".").split(".") + [str(p) for p in first["loc"]])
    message = str(first["msg"]).removeprefix("Value error, ")
    more = error.error_count() - 1
    text = f"{where}: {message}" if where else message
    return text + (f" (and {more} more problems)" if more else "")


_FIELD_WORDS = {
    "gpu": "GPU",
    "cpu": "CPU",
    "psu": "power supply",
    "gpu_count": "GPU count",
    "gpu_power_limit_w": "GPU power limit",
    "nvlink_bridges": "NVLink bridges",
    "seq_len": "sequence length",
    "batch_size": "batch size",
    "tp_degree": "tensor-parallel degree",
    "vram_gib": "VRAM",
    "usd": "price",
}


_UNITS = (
    ("_gb_s", " (GB/s)"),
    ("_mb_s", " (MB/s)"),
    ("_gib", " (GiB)"),
    ("_gb", " (GB)"),
    ("_tflops", " (TFLOPS)"),
    ("_mhz", " (MHz)"),
    ("_mm", " (mm)"),
    ("_usd", " (USD)"),
    ("_w", " (W)"),
)


def _unit_words(name: str) -> str:
    for suffix, unit in _UNITS:
        if name.endswith(suffix):
            return name.removesuffix(suffix).replace("_", " ") + unit
    return name.replace("_", " ")


def field_words(path: list[str]) -> str:
    """A field path as a person reads it: ``builds.0.gpu`` → "Build 1, GPU"."""
    words: list[str] = []
    parts = [p for p in path if p]
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if nxt is not None and nxt.isascii() and nxt.isdigit():
            name = {"builds": "Build", "drives": "drive", "prices": "price"}.get(
                part, part.rstrip("s").replace("_", " ")
            )
            words.append(f"{name} {int(nxt) + 1}")
            i += 2
            continue
        if part.isascii() and part.isdigit():
            words.append(f"item {int(part) + 1}")
        elif part not in ("snapshot", "root"):
            words.append(_FIELD_WORDS.get(part) or _unit_words(part))
        i += 1
    if words:
        words[0] = words[0][:1].upper() + words[0][1:]
    return ", ".join(words)
