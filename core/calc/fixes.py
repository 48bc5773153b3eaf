"""Apply a fix: its typed change to the build and the workload, validated like any edit.

The GUI's *Apply fix*, ``rigforge check --apply-fix`` and the tests all go through
``apply_fix``, so a fix means the same change everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from core.catalog import Catalog
from core.errors import RigForgeError, validation_message
from core.models.build import PART_FIELDS, Build
from core.models.checks import Fix
from core.models.parts import Part
from core.models.workload import LoraSettings, Workload


def _part(build: Build, field: str, part_id: Any, catalog: Catalog | None) -> Part | None:
    if part_id is None:
        return None
    current = getattr(build, field)
    if current is not None and current.id == part_id:
        return current  # type: ignore[no-any-return]
    if catalog is None:
        raise RigForgeError(f"the fix names part {part_id!r} but no catalog is loaded")
    return catalog.get(str(part_id), PART_FIELDS[field])


def apply_to_build(build: Build, fix: Fix, catalog: Catalog | None) -> Build:
    """``build`` with ``fix.build`` applied (part ids resolved in ``catalog``)."""
    if not fix.build:
        return build
    fields: dict[str, Any] = dict(build)
    for field, value in fix.build.items():
        fields[field] = _part(build, field, value, catalog) if field in PART_FIELDS else value
    if "gpu_count" in fix.build and "nvlink_bridges" not in fix.build:
        fields["nvlink_bridges"] = min(build.nvlink_bridges, int(fields["gpu_count"]) // 2)
    try:
        return Build.model_validate(fields)
    except ValidationError as error:
        raise RigForgeError(f"the fix cannot be applied: {validation_message(error)}") from None


def apply_to_workload(workload: Workload, fix: Fix) -> Workload:
    """``workload`` with ``fix.workload`` applied; ``lora_rank`` sets LoRA adapters."""
    if not fix.workload:
        return workload
    update: dict[str, Any] = {
        k: v for k, v in fix.workload.items() if k != "lora_rank" and not k.startswith("serving.")
    }
    serving = {
        k.removeprefix("serving."): v for k, v in fix.workload.items() if k.startswith("serving.")
    }
    if serving:  # serving settings: the workload's own, else the defaults, then the change
        update["serving"] = workload.serving_settings.model_dump() | serving
    rank = fix.workload.get("lora_rank")
    if isinstance(rank, int) and not isinstance(rank, bool):
        update["lora"] = LoraSettings(rank=rank)
    elif "task" in update:
        update["lora"] = None  # the new task's default adapters (QLoRA: NF4, all linear)
    try:
        return Workload.model_validate(workload.model_dump() | update)
    except ValidationError as error:
        raise RigForgeError(f"the fix cannot be applied: {validation_message(error)}") from None


def apply_fix(
    build: Build, workload: Workload | None, fix: Fix, catalog: Catalog | None = None
) -> tuple[Build, Workload | None]:
    """The build and workload after ``fix``; ``RigForgeError`` when it is only advice or
    the result would be invalid."""
    if not fix.applicable:
        raise RigForgeError("this fix is advice, not a change RigForge can make")
    if fix.workload and workload is None:
        raise RigForgeError("this fix changes the workload, and there is none")
    new_build = apply_to_build(build, fix, catalog)
    new_workload = apply_to_workload(workload, fix) if workload is not None else None
    return new_build, new_workload


def with_throughput_cost(
    fixes: tuple[Fix, ...],
    workload: Workload,
    throughput_of: Callable[[Workload], float | None],
) -> tuple[Fix, ...]:
    """Each workload fix with what it costs in throughput (``throughput_pct``, against
    ``throughput_of(workload)``): full checkpointing recomputes the forward, offload copies
    over PCIe, a smaller batch exposes more dispatch. Fixes that change the build, and
    those whose throughput cannot be estimated, are left as they are."""
    before = throughput_of(workload)
    if before is None or before <= 0:
        return fixes
    out = []
    for fix in fixes:
        after = None
        if fix.workload and not fix.build:
            try:
                after = throughput_of(apply_to_workload(workload, fix))
            except (ValueError, ArithmeticError, RigForgeError):
                after = None
        if after is None:
            out.append(fix)
            continue
        pct = (after / before - 1.0) * 100.0
        out.append(
            fix.model_copy(update={"numbers": {**fix.numbers, "throughput_pct": float(round(pct))}})
        )
    return tuple(out)
