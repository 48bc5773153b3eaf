"""An open document: its builds, which one is shown, the workload and the settings.

One immutable value; the GUI replaces it whole on every edit (so undo stores sessions),
the CLI reads one from a file, and ``core.files.io`` turns it into the file format and
back. Its limits are the file format's, so whatever can be edited can be saved.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from core.models.build import Build
from core.models.common import Frozen
from core.models.settings import AnalysisSettings
from core.models.system import System
from core.models.workload import Workload

MAX_BUILDS = 64
MAX_TITLE = 200
MAX_NOTES = 20_000


MAX_SYSTEMS = 16


class SystemPlan(Frozen):
    """A prebuilt system (or two of them linked) compared beside the builds."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    system: System
    nodes: Annotated[int, Field(ge=1, le=2)] = 1


class Session(Frozen):
    builds: Annotated[tuple[Build, ...], Field(min_length=1, max_length=MAX_BUILDS)]
    systems: Annotated[tuple[SystemPlan, ...], Field(max_length=MAX_SYSTEMS)] = ()
    """Prebuilt unified-memory systems compared beside the builds (serving an LLM)."""
    shown: Annotated[int, Field(ge=0)] = 0
    """Index of the build the editor shows (saved as the file's ``baseline``)."""
    workload: Workload | None = None
    settings: AnalysisSettings = AnalysisSettings()
    """The document's analysis settings (circuit, electricity price, utilization)."""
    title: Annotated[str, Field(max_length=MAX_TITLE)] = ""
    notes: Annotated[str, Field(max_length=MAX_NOTES)] = ""

    @model_validator(mode="after")
    def _shown_exists(self) -> Session:
        if self.shown >= len(self.builds):
            raise ValueError(f"no build number {self.shown} to show")
        return self

    @property
    def build(self) -> Build:
        """The build on screen."""
        return self.builds[self.shown]

    def content(self) -> tuple[object, ...]:
        """What a save writes, less the shown build: equal content means nothing to save."""
        return (self.builds, self.systems, self.workload, self.settings, self.title, self.notes)
