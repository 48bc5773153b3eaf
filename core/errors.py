"""Errors core raises for people to read: each message names the problem."""


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


class FetchError(RigForgeError):
    """A URL could not be loaded; the message names the cause (timeout, size, type...)."""
