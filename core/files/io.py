"""Open and save RigForge files: validate, resolve parts, report what changed.

A file becomes a ``Session`` (builds, shown build, workload, settings, title, notes) and a
``Session`` becomes a file; nothing else crosses this boundary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core import __version__
from core.catalog import Catalog
from core.errors import FileFormatError, RigForgeError, validation_message
from core.files.atomic import atomic_write_text
from core.files.document import BuildRecord, Document, DriveRecord, PartRef, SystemRecord
from core.files.migrate import upgrade
from core.files.safe_json import MAX_FILE_BYTES, parse_json_bytes
from core.files.safe_read import read_limited
from core.models.build import PART_FIELDS, Build, DriveSelection
from core.models.parts import Part
from core.models.session import MAX_BUILDS, Session, SystemPlan


@dataclass(frozen=True)
class OpenedFile:
    """A file's content resolved against the catalog, plus notices for the user."""

    session: Session
    notices: tuple[str, ...] = field(default_factory=tuple)
    original_version: int = 2


def parse_document(data: bytes, catalog: Catalog) -> OpenedFile:
    """Bytes of a file (any supported version) -> a session; ``FileFormatError`` otherwise."""
    raw = parse_json_bytes(data)
    original = raw.get("version") if isinstance(raw, dict) else None
    builds = raw.get("builds") if isinstance(raw, dict) else None
    if isinstance(builds, list) and len(builds) > MAX_BUILDS:
        # before validating each one: a small file of a million empty builds would take
        # minutes and gigabytes to list the problems of
        raise FileFormatError(
            f"field 'builds': {len(builds):,} builds; a file holds at most {MAX_BUILDS}"
        )
    try:
        document = Document.model_validate(upgrade(raw))
    except ValidationError as error:
        raise FileFormatError(validation_message(error)) from None
    notices: list[str] = []
    shared: dict[tuple[type, str], Part] = {}
    builds = tuple(
        _resolve_build(record, index, catalog, notices, shared)
        for index, record in enumerate(document.builds)
    )
    if document.baseline >= len(builds):
        raise FileFormatError(f"field 'baseline': no build number {document.baseline}")
    systems = tuple(
        _resolve_system(record, index, notices) for index, record in enumerate(document.systems)
    )
    session = Session(
        builds=builds,
        systems=systems,
        shown=document.baseline,
        workload=document.workload,
        settings=document.settings,
        title=document.title,
        notes=document.notes,
    )
    return OpenedFile(
        session=session,
        notices=tuple(dict.fromkeys(notices)),
        original_version=original if isinstance(original, int) else 2,
    )


def _resolve_system(record: SystemRecord, index: int, notices: list[str]) -> SystemPlan:
    """The catalog's system of that id, else the file's copy (said); the file's copy when
    it differs (the file's dated price and figures are what was saved)."""
    from core.catalog.systems import load_systems

    known = next((s for s in load_systems() if s.id == record.id), None)
    if record.snapshot is not None and record.snapshot.id != record.id:
        raise FileFormatError(
            f"system {index + 1}: snapshot id {record.snapshot.id!r} differs from {record.id!r}"
        )
    system = record.snapshot or known
    if system is None:
        raise FileFormatError(
            f"system {index + 1}: {record.id!r} is not in this catalog and the file has no snapshot"
        )
    if known is None:
        notices.append(
            f"{system.name} ({record.id}) is not in this catalog; using the file's copy."
        )
    elif known == system:
        system = known
    return SystemPlan(name=record.name, system=system, nodes=record.nodes)


def _resolve_part(
    ref: PartRef[Any],
    where: str,
    catalog: Catalog,
    notices: list[str],
    shared: dict[tuple[type, str], Part],
) -> Part:
    part = _resolve_snapshot(ref, where, catalog, notices)
    if part is catalog.by_id(ref.id):
        return part
    # The file's own copies: builds that carry equal copies of a part share one object,
    # so work keyed on the parts (PCIe placement, analyses) is done once, not per build.
    # Keyed by the part's values as JSON: one lookup however many copies a file holds.
    return shared.setdefault((type(part), part.model_dump_json()), part)


def _resolve_snapshot(ref: PartRef[Any], where: str, catalog: Catalog, notices: list[str]) -> Part:
    in_catalog = catalog.by_id(ref.id)
    snapshot: Part | None = ref.snapshot
    if snapshot is None:
        if in_catalog is None:
            raise FileFormatError(
                f"{where}: part {ref.id!r} is not in this catalog and the file has no snapshot"
            )
        return in_catalog
    if snapshot.id != ref.id:
        raise FileFormatError(f"{where}: snapshot id {snapshot.id!r} differs from {ref.id!r}")
    if snapshot.custom:
        if in_catalog is not None and in_catalog != snapshot:
            notices.append(
                f"The file defines its own part {snapshot.name!r} under the catalog id "
                f"{ref.id!r}; the file's part is used instead of the catalog's "
                f"{in_catalog.name}."
            )
        return snapshot
    if in_catalog is None:
        notices.append(f"{snapshot.name} ({ref.id}) is not in this catalog; using the file's copy.")
    elif in_catalog == snapshot:
        return in_catalog  # the same values: the one shared object (work on it is reused)
    elif _without_prices(in_catalog) == _without_prices(snapshot):
        notices.append(PRICED_IN_FILE)  # only the price differs: the file's dated price
    else:
        notices.append(
            f"The catalog's data for {snapshot.name} differs from the file's; "
            "the file's values are used so the numbers match the sender's."
        )
    return snapshot


PRICED_IN_FILE = (
    "Some parts carry their own dated prices in the file (a quote, an imported list); "
    "those prices are used rather than the catalog's."
)
_PRICE_FIELDS = {"price", "used_price", "observations"}


def _without_prices(part: Part) -> dict[str, Any]:
    return part.model_dump(exclude=_PRICE_FIELDS)


def _resolve_build(
    record: BuildRecord,
    index: int,
    catalog: Catalog,
    notices: list[str],
    shared: dict[tuple[type, str], Part],
) -> Build:
    where = f"builds.{index}"

    def part(name: str, ref: PartRef[Any] | None) -> Any:
        if ref is None:
            return None
        return _resolve_part(ref, f"{where}.{name}", catalog, notices, shared)

    fields = record.model_dump(exclude={*PART_FIELDS, "drives"})
    try:
        return Build(
            **fields,
            gpu=part("gpu", record.gpu),
            cpu=part("cpu", record.cpu),
            motherboard=part("motherboard", record.motherboard),
            memory=part("memory", record.memory),
            psu=part("psu", record.psu),
            case=part("case", record.case),
            riser=part("riser", record.riser),
            drives=tuple(
                DriveSelection(drive=part(f"drives.{i}", d.part), count=d.count)
                for i, d in enumerate(record.drives)
            ),
        )
    except ValidationError as error:
        raise FileFormatError(validation_message(error, prefix=f"{where}.")) from None


def _ref(part: Part) -> dict[str, object]:
    return {"id": part.id, "snapshot": part.model_dump(mode="json")}


def _record(build: Build) -> BuildRecord:
    return BuildRecord.model_validate(
        {
            **build.model_dump(
                mode="json",
                exclude={*PART_FIELDS, "drives"},
            ),
            "gpu": _ref(build.gpu),
            "cpu": _ref(build.cpu),
            "motherboard": _ref(build.motherboard),
            "memory": _ref(build.memory),
            "psu": None if build.psu is None else _ref(build.psu),
            "case": None if build.case is None else _ref(build.case),
            "riser": None if build.riser is None else _ref(build.riser),
            "drives": [
                DriveRecord.model_validate({"part": _ref(d.drive), "count": d.count})
                for d in build.drives
            ],
        }
    )


def to_document(session: Session) -> Document:
    """The file format of ``session``; ``RigForgeError`` names what the format refuses."""
    try:
        records = tuple(_record(build) for build in session.builds)
        return Document(
            kind="comparison" if len(records) > 1 else "build",
            title=session.title,
            notes=session.notes,
            app_version=__version__,
            settings=session.settings,
            workload=session.workload,
            builds=records,
            baseline=session.shown,
            systems=tuple(
                SystemRecord(name=p.name, id=p.system.id, snapshot=p.system, nodes=p.nodes)
                for p in session.systems
            ),
        )
    except ValidationError as error:
        raise RigForgeError(f"cannot be saved: {validation_message(error)}") from None


def dumps(document: Document) -> str:
    return json.dumps(document.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def open_file(path: Path, catalog: Catalog) -> OpenedFile:
    """Read ``path`` (a regular file, size-capped, never blocking) and parse it; errors name
    the file and the problem."""
    data = read_limited(path, MAX_FILE_BYTES)
    try:
        return parse_document(data, catalog)
    except FileFormatError as error:
        raise FileFormatError(f"{path.name}: {error}") from None


def save_file(path: Path, session: Session) -> None:
    """Write ``session`` atomically (temporary file, fsync, rename)."""
    atomic_write_text(path, dumps(to_document(session)))
