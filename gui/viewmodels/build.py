"""The build being edited, and its derived figures."""

from __future__ import annotations

from core.models.results import PartsCost
from PySide6.QtCore import QObject, Signal

from core.calc.cost.parts import parts_cost
from core.catalog import Catalog
from core.models.build import Build


class BuildViewModel(QObject):
    build_changed = Signal(object)
    """Emitted with the new ``Build`` after an edit that changed it."""
    cost_changed = Signal(object)

    def __init__(self, catalog: Catalog, build: Build) -> None:
        super().__init__()
        self.catalog = catalog
        self._build = build
        self._cost = parts_cost(build)

    @property
    def build(self) -> Build:
        return self._build

    @property
    def cost(self) -> PartsCost:
        return self._cost

    def set_build(self, build: Build) -> None:
        if build == self._build:
            return
        self._build = build
        self._cost = parts_cost(build)
        self.build_changed.emit(build)
        self.cost_changed.emit(self._cost)
