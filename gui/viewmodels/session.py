"""The one owner of the open document: an immutable ``Session`` and the edits to it.

Every intent (a part chosen, a GPU count, a workload field, a build added, a fix applied)
builds the next ``Session`` in one step, validates it like the file format does, and
replaces the current one through the undo stack, so undo restores whole sessions.
``session_changed`` is emitted once per change; every other view-model derives from it.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any, cast

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from core import fields
from core.calc.compatibility import incompatibilities
from core.calc.fixes import apply_fix
from core.calc.platform.checks import pick_psu
from core.catalog import Catalog
from core.catalog.builds import default_build
from core.errors import RigForgeError, validation_message
from core.models.build import MAX_DRIVES, MAX_NAME, PART_FIELDS, Build, DriveSelection, Quote
from core.models.checks import Fix
from core.models.parts import Category, Part
from core.models.session import MAX_BUILDS, MAX_SYSTEMS, Session, SystemPlan
from core.models.settings import AnalysisSettings
from core.models.workload import Architecture, Workload
from core.text.parts import auto_build_name
from core.workloads import custom_decoder, find_preset, make_workload, recipe_settings

INT_FIELDS = {"gpu_count", "psu_count", "cpu_count", "memory_kits", "nvlink_bridges"}
DEFAULT_PRESET = "resnet50-v1.5"

MERGE_IDS: dict[str, int] = {}


def merge_id(key: str) -> int:
    """A stable command id for ``key`` so repeated edits of one field merge."""
    return MERGE_IDS.setdefault(key, len(MERGE_IDS) + 1)


def default_workload() -> Workload:
    """ResNet-50 v1.5 training on ImageNet-1k for 90 epochs, batch 128 per GPU (bf16)."""
    return make_workload(
        find_preset(DEFAULT_PRESET),
        batch_size=128,
        precision="bf16",
        dataset_samples=1_281_167,
        target={"epochs": 90},
    )


MERGE_WINDOW_S = 1.0
"""Seconds within which edits of one field merge into one undo step."""

PART_WORDS = {"motherboard": "board", "riser": "risers", "psu": "PSU"}
"""Part fields as the build editor's labels name them, where not the part's own word."""


def part_edit_text(field: str, name: str) -> str:
    """ "Set GPU to RTX 4090": a part chosen, in the user's words."""
    word = PART_WORDS.get(field) or (field.upper() if field in ("gpu", "cpu") else field)
    return f"Set {word} to {name}"


class SessionCommand(QUndoCommand):
    """Replace the whole session; undo puts the one before back.

    The command holds its view-model's setter weakly: the view-model owns the undo stack
    that owns the command, and a strong reference back would make a cycle only Python's
    collector can break, in an order that lets Qt delete the stack under it."""

    def __init__(
        self,
        text: str,
        setter: Callable[[Session], None],
        before: Session,
        after: Session,
        merge_key: str | None = None,
    ) -> None:
        super().__init__(text)
        self._setter_ref = weakref.WeakMethod(setter)
        self.before = before
        self.after = after
        self._id = merge_id(merge_key) if merge_key else -1
        self.made = self.last = time.monotonic()

    def _set(self, session: Session) -> None:
        setter = self._setter_ref()
        if setter is not None:
            setter(session)

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)

    def id(self) -> int:
        return self._id

    def mergeWith(self, other: QUndoCommand) -> bool:
        """Edits of one field in quick succession (spin-box steps, held arrow keys) undo as
        one, named by the last; an edit after a pause is a step of its own."""
        if not isinstance(other, SessionCommand) or other.id() != self.id() or self._id < 0:
            return False
        if other.made - self.last > MERGE_WINDOW_S:
            return False
        self.after = other.after
        self.last = other.made
        self.setText(other.text())
        return True


class SessionViewModel(QObject):
    session_changed = Signal(object)
    """Emitted with the new ``Session`` after it was replaced (edit, undo, open, select)."""
    edit_rejected = Signal(str)
    """An edit was refused; the message says why (nothing changed)."""

    def __init__(self, catalog: Catalog, session: Session) -> None:
        super().__init__()
        self.catalog = catalog
        self.undo_stack = QUndoStack(self)
        self._session = session
        self._custom: dict[str, Part] = {}
        self.gate: Callable[[Session], str | None] | None = None
        """Called with every edited session before it is committed; a message refuses the
        edit (the composition root makes it "the shown build must analyse")."""

    # -- state ----------------------------------------------------------------------

    @property
    def session(self) -> Session:
        return self._session

    @property
    def build(self) -> Build:
        return self._session.build

    @property
    def workload(self) -> Workload | None:
        return self._session.workload

    @property
    def settings(self) -> AnalysisSettings:
        return self._session.settings

    def parts(self, category: str) -> tuple[Part, ...]:
        """Catalog parts of ``category`` plus the custom parts defined this session."""
        custom = tuple(p for p in self._custom.values() if p.category == category)
        return custom + self.catalog.parts(cast(Category, category))

    def incompatibilities(self, category: str) -> dict[str, str | None]:
        """Why each part of ``category`` cannot go into the shown build (``None``: it can),
        for the part pickers."""
        return incompatibilities(self.build, category, self.parts(category))

    def part(self, part_id: str, category: Category) -> Part:
        if part_id in self._custom:
            return self._custom[part_id]
        for _q, current in self.build.bill_of_materials():
            if current.id == part_id:
                return current
        return self.catalog.get(part_id, category)

    # -- replacing the session ----------------------------------------------------------

    def _put(self, session: Session) -> None:
        if session is not self._session:
            self._session = session
            self.session_changed.emit(session)

    def reset(self, session: Session) -> None:
        """A new document (opened, recovered, new): no undo across it."""
        self.undo_stack.clear()
        self._custom.clear()
        self._put(session)

    def replace(self, text: str, session: Session, merge_key: str | None = None) -> str | None:
        """Make ``session`` current through the undo stack (no-op when nothing changed)."""
        if session == self._session:
            return None
        if self.gate is not None and (problem := self.gate(session)) is not None:
            return self._reject(problem)
        self.undo_stack.push(SessionCommand(text, self._put, self._session, session, merge_key))
        return None

    def _reject(self, message: str) -> str:
        self.edit_rejected.emit(message)
        return message

    def select_build(self, index: int) -> None:
        """Show build ``index``: navigation, not an edit (no undo entry, nothing to save)."""
        if index != self._session.shown and 0 <= index < len(self._session.builds):
            self._put(self._session.model_copy(update={"shown": index}))

    # -- build intents ----------------------------------------------------------------------

    def _with_build(self, build: Build, index: int | None = None) -> Session:
        index = self._session.shown if index is None else index
        builds = list(self._session.builds)
        builds[index] = build
        return self._session.model_copy(update={"builds": tuple(builds)})

    def edit_build(
        self, text: str, changes: dict[str, Any], merge_key: str | None = None
    ) -> str | None:
        """Change fields of the shown build (parts as objects); ``None`` or why not."""
        current = self.build
        fields = {**dict(current), **changes}
        for name in INT_FIELDS & changes.keys():
            fields[name] = int(fields[name])
        try:
            build = Build.model_validate(fields)
        except ValidationError as error:
            return self._reject(validation_message(error))
        if "name" not in changes and current.name == auto_build_name(current):
            # a name RigForge gave follows the GPUs (the sheet's title says what it is)
            build = build.model_copy(update={"name": auto_build_name(build)})
        return self.replace(text, self._with_build(build), merge_key)

    def set_part(self, field: str, part_id: str | None) -> str | None:
        """Put part ``part_id`` (catalog or custom) in ``field``; ``None`` clears psu/case."""
        try:
            part = None if part_id is None else self.part(part_id, PART_FIELDS[field])
        except RigForgeError as error:
            return self._reject(str(error))
        name = part.name if part is not None else "none"
        return self.edit_build(part_edit_text(field, name), {field: part})

    def set_value(self, key: str, value: Any) -> str | None:
        """Set build setting ``key`` (``core.fields.BUILD_FIELDS``) to the value its editor
        shows, with the settings that follow it (``core.fields.build_changes``)."""
        f = fields.field(key)
        return self.edit_build(
            fields.edit_words(f, value), fields.build_changes(f, self.build, value), f"build.{key}"
        )

    def build_value(self, key: str) -> Any:
        """What build setting ``key``'s editor shows for the shown build."""
        return fields.read_build(fields.field(key), self.build)

    def set_used(self, part_id: str, used: bool) -> str | None:
        """Buy ``part_id`` second-hand (its used price applies) or new."""
        current = self.build.used
        marked = (*current, part_id) if used and part_id not in current else current
        if not used:
            marked = tuple(i for i in current if i != part_id)
        name = next(
            (p.name for _q, p in self.build.bill_of_materials() if p.id == part_id), part_id
        )
        return self.edit_build(f"Buy {name} {'used' if used else 'new'}", {"used": marked})

    def set_quote(self, part_id: str, vendor: str, reference: str) -> str | None:
        """Where part ``part_id`` is bought: vendor and quote reference (empty clears)."""
        vendor, reference = vendor.strip(), reference.strip()
        kept = tuple(q for q in self.build.quotes if q.part_id != part_id)
        try:
            quotes = (
                (*kept, Quote(part_id=part_id, vendor=vendor, reference=reference))
                if vendor or reference
                else kept
            )
        except ValidationError as error:  # too long a text
            return self._reject(validation_message(error))
        name = next(
            (p.name for _q, p in self.build.bill_of_materials() if p.id == part_id), part_id
        )
        return self.edit_build(f"Set where {name} is bought", {"quotes": quotes})

    def set_order(self, tax_pct: float | None, shipping_usd: float | None) -> str | None:
        """The order's sales tax (per cent) and shipping (USD); ``None``: not stated."""
        return self.edit_build(
            "Set tax and shipping", {"tax_pct": tax_pct, "shipping_usd": shipping_usd}, "order"
        )

    def set_drives(self, drives: tuple[DriveSelection, ...], text: str) -> str | None:
        return self.edit_build(text, {"drives": drives})

    def can_add_drive(self) -> bool:
        """Whether one more drive fits the file format's limit (``MAX_DRIVES``)."""
        return self.build.drive_count < MAX_DRIVES

    def add_drive(self, part_id: str) -> str | None:
        """One more of drive ``part_id`` (another of the same drive raises its count)."""
        if not self.can_add_drive():
            return self._reject(
                f"A build holds at most {MAX_DRIVES} drives (the file format's limit); "
                "remove one before adding another"
            )
        try:
            drive = self.part(part_id, "drive")
        except RigForgeError as error:
            return self._reject(str(error))
        drives = list(self.build.drives)
        for i, selection in enumerate(drives):
            if selection.drive.id == drive.id:
                drives[i] = selection.model_copy(update={"count": selection.count + 1})
                break
        else:
            drives.append(DriveSelection.model_validate({"drive": drive}))
        return self.set_drives(tuple(drives), f"Add drive {drive.name}")

    def remove_drive(self, row: int) -> str | None:
        """Remove the drive line ``row`` (the last one when ``row`` is out of range); a
        build keeps at least one drive."""
        drives = list(self.build.drives)
        if len(drives) < 2:
            return self._reject("A build needs at least one drive")
        removed = drives.pop(row if 0 <= row < len(drives) else len(drives) - 1)
        return self.set_drives(tuple(drives), f"Remove drive {removed.drive.name}")

    def add_custom_part(self, part: Part) -> str | None:
        """Remember a custom part and put it in the build (drives are added)."""
        part = part.model_copy(update={"custom": True})
        self._custom[part.id] = part
        if part.category == "drive":
            drives = (*self.build.drives, DriveSelection.model_validate({"drive": part}))
            return self.set_drives(drives, f"Add custom drive {part.name}")
        field = next(f for f, c in PART_FIELDS.items() if c == part.category)
        return self.edit_build(f"Use custom {field} {part.name}", {field: part})

    # -- workload and settings intents ------------------------------------------------------------

    def set_field(self, key: str, value: Any) -> str | None:
        """Set workload setting ``key`` (``core.fields.WORKLOAD_FIELDS``) to the value its
        editor shows, with the settings that follow it (``core.fields.changes``)."""
        f = fields.field(key)
        current = self.workload or default_workload()
        return self.edit_workload(
            fields.edit_words(f, value), fields.changes(f, current, value), f"workload.{key}"
        )

    def field_value(self, key: str) -> Any:
        """What workload setting ``key``'s editor shows."""
        return fields.read(fields.field(key), self.workload or default_workload())

    def field_off_reason(self, key: str) -> str | None:
        """Why workload setting ``key`` does not apply now (``None``: it does)."""
        return fields.why_not(fields.field(key), self.workload or default_workload())

    def build_field_off_reason(self, key: str) -> str | None:
        """Why build setting ``key`` does not apply to the shown build (``None``: it does)."""
        return fields.why_not(fields.field(key), self.build)

    def set_custom_decoder(self, layers: int, hidden: int, heads: int, vocab: int) -> str | None:
        """A Llama-style decoder of these sizes (``core.workloads.custom_decoder``)."""
        try:
            arch = custom_decoder(layers, hidden, heads, vocab)
        except (RigForgeError, ValueError) as error:
            return self._reject(f"custom model: {error}")
        return self.set_architecture(f"Custom decoder {arch.params_total / 1e9:.2f}B", arch)

    def edit_workload(
        self, text: str, changes: dict[str, Any], merge_key: str | None = None
    ) -> str | None:
        current = self.workload or default_workload()
        try:
            workload = Workload.model_validate({**dict(current), **changes})
        except ValidationError as error:
            # a pipeline that the new task, parallelism or model cannot run is dropped in
            # the same edit (inference, FSDP, a model whose layers do not split evenly)
            unpiped = {**changes, "pp_degree": 1, "pp_virtual_stages": 1}
            if current.pp_degree == 1 or {"pp_degree", "pp_virtual_stages"} & changes.keys():
                return self._reject(validation_message(error))
            try:
                workload = Workload.model_validate({**dict(current), **unpiped})
            except ValidationError:
                return self._reject(validation_message(error))
        return self.set_workload(text, workload, merge_key)

    def set_workload(
        self, text: str, workload: Workload | None, merge_key: str | None = None
    ) -> str | None:
        return self.replace(
            text, self._session.model_copy(update={"workload": workload}), merge_key
        )

    def set_preset(self, preset_id: str) -> str | None:
        try:
            preset = find_preset(preset_id)
        except RigForgeError as error:
            return self._reject(str(error))
        keep = {"precision": self.workload.precision} if self.workload else {}
        recipe = recipe_settings(preset)
        try:
            workload = make_workload(preset, **recipe, **keep)
        except RigForgeError:
            workload = make_workload(preset, **recipe)
        return self.set_workload(f"Workload {preset.name}", workload)

    def set_architecture(self, name: str, architecture: Architecture) -> str | None:
        """A custom model (size parameters or a Hugging Face config)."""
        return self.edit_workload(
            f"Custom model {name}", {"name": name, "preset_id": None, "architecture": architecture}
        )

    def set_settings(self, settings: AnalysisSettings) -> str | None:
        """The document's analysis settings (circuit, electricity price, utilization)."""
        return self.replace(
            "Change settings", self._session.model_copy(update={"settings": settings})
        )

    # -- fixes -------------------------------------------------------------------------------

    def apply_fix(self, fix: Fix, text: str | None = None) -> str | None:
        """Apply ``fix`` (its typed change to the shown build and the workload) as one edit."""
        try:
            build, workload = apply_fix(self.build, self.workload, fix, self.catalog)
        except RigForgeError as error:
            return self._reject(str(error))
        session = self._with_build(build).model_copy(update={"workload": workload})
        return self.replace(text or f"Apply fix: {fix.code.replace('_', ' ')}", session)

    def size_psu(self) -> str | None:
        """Choose the smallest catalog PSU that carries the build ("size it for me")."""
        fix = pick_psu(self.build, self.settings, self.catalog)
        if fix is None:
            return self._reject("no catalog PSU (one or two units) carries this build")
        return self.apply_fix(fix, "Size the PSU")

    # -- several builds ------------------------------------------------------------------------

    def add_build(self, build: Build | None = None) -> int | str:
        """Add ``build`` (default: the bundled default build) and show it; its index."""
        if len(self._session.builds) >= MAX_BUILDS:
            return self._reject(f"a comparison holds at most {MAX_BUILDS} builds")
        build = build or default_build(self.catalog)
        names = {b.name for b in self._session.builds}
        build = _named(build, _unique(build.name, names))
        builds = (*self._session.builds, build)
        session = self._session.model_copy(update={"builds": builds, "shown": len(builds) - 1})
        problem = self.replace(f"Add build {build.name}", session)
        return len(builds) - 1 if problem is None else problem

    def import_part_list(self, text: str) -> str:
        """Add a build made from a PCPartPicker part list's text and show it; what was
        matched, made and left out, in words (``RigForgeError`` names a list that cannot
        make a build)."""
        from core.files.pcpartpicker import import_list, parse_list
        from core.prices.currency import load_currency_table

        parsed = parse_list(text)
        result = import_list(parsed, self.catalog, load_currency_table())
        for _item, part in result.made:
            self._custom[part.id] = part
        added = self.add_build(result.build)
        if isinstance(added, str):
            raise RigForgeError(added)
        lines = [f"Imported {len(result.matched) + len(result.made)} parts as a new build."]
        lines += [f"Matched: {i.name} → {p.name}" for i, p in result.matched]
        lines += [f"Custom part (not in the catalog): {i.name}" for i, _p in result.made]
        lines += [f"Left out: {i.name} ({why})" for i, why in result.left_out]
        lines += result.notices
        return "\n".join(lines)

    def duplicate_build(self, index: int) -> int | str:
        """Copy build ``index`` as a variant right after it and show the copy."""
        if len(self._session.builds) >= MAX_BUILDS:
            return self._reject(f"a comparison holds at most {MAX_BUILDS} builds")
        builds = self._session.builds
        source = builds[index]
        names = {b.name for b in builds}
        copy = _named(source, _unique(f"{source.name} (copy)", names))
        new = (*builds[: index + 1], copy, *builds[index + 1 :])
        session = self._session.model_copy(update={"builds": new, "shown": index + 1})
        problem = self.replace(f"Duplicate {source.name}", session)
        return index + 1 if problem is None else problem

    def _system_plan(
        self, system_id: str, nodes: int, current: SystemPlan | None = None
    ) -> SystemPlan | str:
        """A plan of ``nodes`` × the prebuilt system ``system_id`` (``current``'s own system
        when it is that one, even where the catalog lacks it), or why not."""
        from core.catalog.systems import find_system

        if current is not None and current.system.id == system_id:
            system = current.system
        else:
            try:
                system = find_system(system_id)
            except RigForgeError as error:
                return self._reject(str(error))
        name = system.name if nodes == 1 else f"2 × {system.name}"
        return SystemPlan(name=name, system=system, nodes=nodes)

    def add_system(self, system_id: str, nodes: int = 1) -> int | str:
        """Compare the prebuilt system ``system_id`` (``nodes`` of them linked) beside the
        builds; its index among the systems."""
        systems = self._session.systems
        if len(systems) >= MAX_SYSTEMS:
            return self._reject(f"a comparison holds at most {MAX_SYSTEMS} systems")
        plan = self._system_plan(system_id, nodes)
        if isinstance(plan, str):
            return plan
        session = self._session.model_copy(update={"systems": (*systems, plan)})
        problem = self.replace(f"Add system {plan.name}", session)
        return len(systems) if problem is None else problem

    def set_system(self, index: int, system_id: str, nodes: int) -> str | None:
        """Make system ``index`` the prebuilt system ``system_id`` (``nodes`` of them linked),
        through the undo stack."""
        systems = self._session.systems
        if not 0 <= index < len(systems):
            return self._reject("no such system")
        plan = self._system_plan(system_id, nodes, systems[index])
        if isinstance(plan, str):
            return plan
        new = (*systems[:index], plan, *systems[index + 1 :])
        session = self._session.model_copy(update={"systems": new})
        return self.replace(f"System {plan.name}", session)

    def remove_system(self, index: int) -> str | None:
        systems = self._session.systems
        if not 0 <= index < len(systems):
            return self._reject("no such system")
        new = systems[:index] + systems[index + 1 :]
        return self.replace(
            f"Remove {systems[index].name}", self._session.model_copy(update={"systems": new})
        )

    def remove_build(self, index: int) -> str | None:
        """Remove build ``index``; a message when it is the last one."""
        builds = self._session.builds
        if len(builds) <= 1:
            return self._reject("a comparison keeps at least one build")
        new = builds[:index] + builds[index + 1 :]
        shown = self._session.shown
        shown = shown - 1 if shown > index else min(shown, len(new) - 1)
        session = self._session.model_copy(update={"builds": new, "shown": shown})
        return self.replace(f"Remove {builds[index].name}", session)

    def rename_build(self, index: int, name: str) -> str | None:
        name = name.strip()
        build = self._session.builds[index]
        if name == build.name:
            return None
        if not name:
            return self._reject("a build needs a name")
        if len(name) > MAX_NAME:
            return self._reject(f"a build name is at most {MAX_NAME} characters")
        others = {b.name for i, b in enumerate(self._session.builds) if i != index}
        if name in others:
            # Compare's columns, the "Deltas against" list and the chart legends tell the
            # builds apart by name
            return self._reject(f"another build is already named {name!r}")
        try:
            renamed = Build.model_validate(dict(build) | {"name": name})
        except ValidationError as error:
            return self._reject(f"build name: {validation_message(error)}")
        return self.replace(f"Rename {build.name}", self._with_build(renamed, index))


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name 2``, ``name 3``… when taken; never longer than a name may be."""
    stem = name[: MAX_NAME - 4]
    if name not in taken and len(name) <= MAX_NAME:
        return name
    n = 2
    while f"{stem} {n}" in taken:
        n += 1
    return f"{stem} {n}"


def _named(build: Build, name: str) -> Build:
    return Build.model_validate(dict(build) | {"name": name})
