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
    where = ".".join(str(p) for p in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    more = error.error_count() - 1
    text = f"field '{prefix}{where}': {message}" if (prefix or where) else message
    return text + (f" (and {more} more problems)" if more else "")
