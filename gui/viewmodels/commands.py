"""Undoable edits: every change to the build, workload or settings is one command.

A command holds the value before and after, and a setter that puts a value in
place (and recomputes); undo and redo only swap which value is put back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from PySide6.QtGui import QUndoCommand

T = TypeVar("T")

MERGE_IDS: dict[str, int] = {}


def merge_id(key: str) -> int:
    """A stable command id for ``key`` so repeated edits of one field merge."""
    return MERGE_IDS.setdefault(key, len(MERGE_IDS) + 1)


class ValueCommand(QUndoCommand, Generic[T]):
    """Replace a whole value (a ``Build``, ``Workload`` or ``AnalysisSettings``)."""

    def __init__(
        self,
        text: str,
        setter: Callable[[T], None],
        before: T,
        after: T,
        *,
        merge_key: str | None = None,
    ) -> None:
        super().__init__(text)
        self._setter = setter
        self.before = before
        self.after = after
        self._id = merge_id(merge_key) if merge_key else -1

    def redo(self) -> None:
        self._setter(self.after)

    def undo(self) -> None:
        self._setter(self.before)

    def id(self) -> int:
        return self._id

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Consecutive edits of one field (spin-box steps) undo as one."""
        if not isinstance(other, ValueCommand) or other.id() != self.id() or self._id < 0:
            return False
        self.after = other.after
        return True
