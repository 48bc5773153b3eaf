"""The build, workload and settings being edited, and their analysis.

Every edit goes through the undo stack as a ``ValueCommand``; putting a value
in place re-analyses synchronously (about a millisecond) and emits
``analysis_changed`` only when the result differs.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from core.calc.analysis import Analysis, analyze
from core.calc.cost.tco import analysis_cost
from core.calc.memory.vram import VramFix
from core.calc.platform.checks import pick_psu
from core.calc.platform.power import power_budget
from core.catalog import Catalog
from core.errors import RigForgeError
from core.models.build import Build
from core.models.checks import Check, Fix
from core.models.cost import CostReport
from core.models.parts import Part
from core.models.power import PowerBudget
from core.models.settings import AnalysisSettings
from core.models.workload import Architecture, Workload
from core.prices.cloud import load_cloud_rates
from core.workloads import find_preset, make_workload
from gui.viewmodels.build import BuildViewModel
from gui.viewmodels.commands import ValueCommand
from gui.viewmodels.document import DocumentViewModel

PART_FIELDS = {
    "gpu": "gpu",
    "cpu": "cpu",
    "motherboard": "motherboard",
    "memory": "memory",
    "psu": "psu",
    "case": "case",
}
"""Build field -> catalog category."""
INT_FIELDS = {"gpu_count", "psu_count", "cpu_count", "memory_kits", "nvlink_bridges"}
DEFAULT_PRESET = "resnet50-v1.5"


def default_workload() -> Workload:
    """ResNet-50 v1.5 training on ImageNet-1k for 90 epochs, batch 128 per GPU (bf16)."""
    return make_workload(
        find_preset(DEFAULT_PRESET),
        batch_size=128,
        precision="bf16",
        dataset_samples=1_281_167,
        target={"epochs": 90},
    )


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def shown_vram_fix(vram_fixes: tuple[VramFix, ...]) -> VramFix | None:
    """The VRAM fix the check names: the first that fits, else the first."""
    return next((f for f in vram_fixes if f.fits), vram_fixes[0] if vram_fixes else None)


class AnalysisViewModel(QObject):
    analysis_changed = Signal(object)
    """Emitted with the new ``Analysis`` (``power`` and ``cost_report`` are set first)."""
    workload_changed = Signal(object)
    settings_changed = Signal(object)
    """Emitted with the new ``AnalysisSettings``."""
    edit_rejected = Signal(str)
    """An edit was refused; the message says why (nothing changed)."""

    def __init__(
        self,
        build_view_model: BuildViewModel,
        document: DocumentViewModel,
        workload: Workload | None = None,
        settings: AnalysisSettings | None = None,
    ) -> None:
        super().__init__()
        self.build_view_model = build_view_model
        self.document = document
        self.catalog: Catalog = build_view_model.catalog
        self.undo_stack = QUndoStack(self)
        self._custom: dict[str, Part] = {}
        self._workload = workload if workload is not None else default_workload()
        self._settings = settings if settings is not None else AnalysisSettings()
        document.set_workload(self._workload, dirty=False)
        document.set_settings(self._settings, dirty=False)
        self._analysis, self._power, self._cost = self._compute()
        build_view_model.build_changed.connect(self._on_build_view_model_build_changed)
        document.document_opened.connect(self._on_document_opened)

    # -- state -------------------------------------------------------------------

    @property
    def build(self) -> Build:
        return self.build_view_model.build

    @property
    def workload(self) -> Workload:
        return self._workload

    @property
    def settings(self) -> AnalysisSettings:
        return self._settings

    @property
    def analysis(self) -> Analysis:
        return self._analysis

    @property
    def power(self) -> PowerBudget:
        return self._power

    @property
    def cost_report(self) -> CostReport:
        return self._cost

    def parts(self, category: str) -> tuple[Part, ...]:
        """Catalog parts of ``category`` plus the custom parts defined this session."""
        custom = tuple(p for p in self._custom.values() if p.category == category)
        return custom + self.catalog.parts(category)  # type: ignore[arg-type]

    def part(self, part_id: str, category: str) -> Part:
        if part_id in self._custom:
            return self._custom[part_id]
        for current in self._build_parts():
            if current.id == part_id:
                return current
        return self.catalog.get(part_id, category)  # type: ignore[arg-type]

    def _build_parts(self) -> list[Part]:
        b = self.build
        parts: list[Part] = [b.gpu, b.cpu, b.motherboard, b.memory]
        parts += [d.drive for d in b.drives]
        parts += [p for p in (b.psu, b.case) if p is not None]
        return parts

    # -- recompute ----------------------------------------------------------------

    def _compute(self) -> tuple[Analysis, PowerBudget, CostReport]:
        analysis = analyze(self.build, self._workload, self._settings, self.catalog)
        power = power_budget(self.build, self._settings)
        return analysis, power, analysis_cost(analysis, rates=load_cloud_rates().rates)

    def _recompute(self) -> None:
        analysis, power, cost = self._compute()
        if analysis == self._analysis and power == self._power:
            return
        self._analysis, self._power, self._cost = analysis, power, cost
        self.analysis_changed.emit(analysis)

    def _on_build_view_model_build_changed(self, _build: Build) -> None:
        self._recompute()

    def _on_document_opened(self, _opened: object) -> None:
        self.undo_stack.clear()
        workload = self.document.workload or default_workload()
        self._put_workload(workload, mark_dirty=False)
        self._put_settings(self.document.settings, mark_dirty=False)
        self._recompute()

    # -- setters used by commands -----------------------------------------------------

    def _put_build(self, build: Build) -> None:
        self.build_view_model.set_build(build)

    def _put_workload(self, workload: Workload, *, mark_dirty: bool = True) -> None:
        if workload == self._workload:
            return
        self._workload = workload
        self.document.set_workload(workload, dirty=mark_dirty)
        self.workload_changed.emit(workload)
        self._recompute()

    def _put_settings(self, settings: AnalysisSettings, *, mark_dirty: bool = True) -> None:
        if settings == self._settings:
            return
        self._settings = settings
        self.document.set_settings(settings, dirty=mark_dirty)
        self.settings_changed.emit(settings)
        self._recompute()

    # -- intents -----------------------------------------------------------------------

    def edit_build(
        self, text: str, changes: dict[str, Any], merge_key: str | None = None
    ) -> str | None:
        """Change build fields (parts as objects); ``None`` or a message saying why not."""
        fields = {**dict(self.build), **changes}
        for name in INT_FIELDS & changes.keys():
            fields[name] = int(fields[name])
        try:
            build = Build.model_validate(fields)
        except ValidationError as error:
            return self._reject(_first_error(error))
        if build != self.build:
            self.undo_stack.push(
                ValueCommand(text, self._put_build, self.build, build, merge_key=merge_key)
            )
        return None

    def set_part(self, field: str, part_id: str | None) -> str | None:
        """Put the part ``part_id`` (catalog or custom) in ``field``; ``None`` clears psu/case."""
        part = None if part_id is None else self.part(part_id, PART_FIELDS[field])
        name = part.name if part is not None else "none"
        return self.edit_build(f"Set {field} to {name}", {field: part})

    def set_drives(self, drives: tuple[Any, ...], text: str = "Change drives") -> str | None:
        return self.edit_build(text, {"drives": drives})

    def set_value(self, field: str, value: Any) -> str | None:
        label = field.replace("_", " ")
        return self.edit_build(f"Set {label} to {value}", {field: value}, f"build.{field}")

    def size_psu(self) -> str | None:
        """Choose the smallest catalog PSU that carries the build ("size it for me")."""
        fix = pick_psu(self.build, self._settings, self.catalog)
        if fix is None:
            return self._reject("no catalog PSU (one or two units) carries this build")
        return self.apply_build_fix(fix, "Size the PSU")

    def add_custom_part(self, part: Part) -> str | None:
        """Remember a custom part and put it in the build (drives are added)."""
        part = part.model_copy(update={"custom": True})
        self._custom[part.id] = part
        if part.category == "drive":
            from core.models.build import DriveSelection

            drives = (*self.build.drives, DriveSelection.model_validate({"drive": part}))
            return self.set_drives(drives, f"Add custom drive {part.name}")
        field = next(f for f, c in PART_FIELDS.items() if c == part.category)
        return self.edit_build(f"Use custom {field} {part.name}", {field: part})

    def edit_workload(
        self, text: str, changes: dict[str, Any], merge_key: str | None = None
    ) -> str | None:
        try:
            workload = Workload.model_validate({**dict(self._workload), **changes})
        except ValidationError as error:
            return self._reject(_first_error(error))
        return self._push_workload(text, workload, merge_key)

    def set_preset(self, preset_id: str) -> str | None:
        try:
            preset = find_preset(preset_id)
        except RigForgeError as error:
            return self._reject(str(error))
        keep = {"precision": self._workload.precision}
        try:
            workload = make_workload(preset, **keep)
        except RigForgeError:
            workload = make_workload(preset)
        return self._push_workload(f"Workload {preset.name}", workload)

    def set_architecture(self, name: str, architecture: Architecture) -> str | None:
        """A custom model (size parameters or a Hugging Face config)."""
        return self.edit_workload(
            f"Custom model {name}", {"name": name, "preset_id": None, "architecture": architecture}
        )

    def _push_workload(
        self, text: str, workload: Workload, merge_key: str | None = None
    ) -> str | None:
        if workload != self._workload:
            self.undo_stack.push(
                ValueCommand(
                    text, self._put_workload, self._workload, workload, merge_key=merge_key
                )
            )
        return None

    def set_settings(self, settings: AnalysisSettings) -> None:
        if settings != self._settings:
            self.undo_stack.push(
                ValueCommand("Change settings", self._put_settings, self._settings, settings)
            )

    # -- fixes ---------------------------------------------------------------------------

    def can_apply(self, check: Check) -> bool:
        if check.fix is None:
            return False
        if check.id == "vram.fit":
            return self._analysis.vram is not None and bool(self._analysis.vram.fixes)
        return bool(check.fix.change)

    def apply_fix(self, check: Check) -> str | None:
        """Apply the check's fix: a build change, or for VRAM the workload change it names."""
        if check.fix is None:
            return self._reject("this check has no fix")
        if check.id == "vram.fit" and self._analysis.vram is not None:
            return self._apply_vram_fix(shown_vram_fix(self._analysis.vram.fixes))
        return self.apply_build_fix(check.fix, "Apply fix")

    def apply_build_fix(self, fix: Fix, text: str) -> str | None:
        if not fix.change:
            return self._reject("this fix is not a single change to the build")
        changes: dict[str, Any] = {}
        for field, value in fix.change.items():
            if field in PART_FIELDS:
                changes[field] = self.part(str(value), PART_FIELDS[field])
            else:
                changes[field] = value
        return self.edit_build(text, changes)

    def _apply_vram_fix(self, fix: VramFix | None) -> str | None:
        if fix is None:
            return self._reject("no change to the workload lowers its memory")
        update: dict[str, Any] = {
            k: v for k, v in fix.changes.items() if k in Workload.model_fields and k != "lora"
        }
        gpus = fix.changes.get("gpu_count")
        self.undo_stack.beginMacro(f"Apply fix: {fix.code.replace('_', ' ')}")
        try:
            if isinstance(gpus, int) and gpus != self.build.gpu_count:
                self.edit_build("Add GPUs", {"gpu_count": gpus})
            error = self.edit_workload("Change workload", update)
        finally:
            self.undo_stack.endMacro()
        return error

    def _reject(self, message: str) -> str:
        self.edit_rejected.emit(message)
        return message
