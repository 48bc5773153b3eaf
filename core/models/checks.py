"""The result of every build check: a severity, a reason code, its numbers and a fix.

Text for people is rendered from ``reason`` and ``fix.code`` by ``core.text`` (one renderer
for GUI, CLI and PDF); ``core.calc.fixes.apply_fix`` applies a fix.
"""

from __future__ import annotations

from typing import Literal

from core.models.common import Frozen, NonEmptyStr

Severity = Literal["pass", "info", "warn", "fail"]
Number = float | str

SEVERITY_ORDER: dict[Severity, int] = {"pass": 0, "info": 1, "warn": 2, "fail": 3}
Verdict = Literal["pass", "changes", "fail"]
"""A build works, works with changes of how it runs, or won't work (``core.calc.verdict``)."""
VERDICT_ORDER: dict[Verdict, int] = {"pass": 0, "changes": 1, "fail": 2}
OPERATING_ADVICE = frozenset({"use_bigger_circuit"})
"""Fix codes of advice (no change RigForge can make) that is still about how a build runs."""
OPERATING_BUILD_FIELDS = frozenset({"gpu_power_limit_w"})
"""Build fields an operating change may set (every other field is a part or a count)."""


BuildField = Literal[
    "gpu",
    "gpu_count",
    "gpu_power_limit_w",
    "nvlink_bridges",
    "cpu",
    "motherboard",
    "memory",
    "memory_kits",
    "psu",
    "psu_count",
    "case",
    "riser",
]
"""Build fields a fix may change; part fields take a catalog id."""
WorkloadField = Literal[
    "task",
    "precision",
    "batch_size",
    "seq_len",
    "optimizer",
    "checkpointing",
    "parallelism",
    "tp_degree",
    "pp_degree",
    "grad_accum_steps",
    "pp_virtual_stages",
    "cpu_offload",
    "lora_rank",
    "serving.weights",
    "serving.kv_cache",
    "serving.streams",
    "serving.split",
    "serving.offload_gib",
    "serving.n_cpu_moe",
    "serving.flash_attention",
]
"""Workload fields a fix may change (``lora_rank`` sets LoRA adapters of that rank;
``serving.*`` the LLM serving settings)."""
FixValue = str | int | float | bool | None


class Fix(Frozen):
    """A typed change to the build and/or the workload that resolves a check, with the
    numbers it leads to.

    ``build`` maps build fields to new values (a part id for part fields:
    ``{"psu": "corsair-ax1600i"}``, or a number: ``{"gpu_power_limit_w": 320}``);
    ``workload`` maps workload fields (``{"checkpointing": "full"}``). Both are empty
    when the fix is advice rather than an edit (for example "use a 20 A circuit").
    ``numbers`` holds the resulting figures the text names (``total_gib``, ``fits``,
    ``throughput_pct``). ``core.calc.fixes.apply_fix`` applies it.
    """

    code: NonEmptyStr
    build: dict[BuildField, FixValue] = {}
    workload: dict[WorkloadField, FixValue] = {}
    numbers: dict[str, Number] = {}

    @property
    def applicable(self) -> bool:
        """Whether one click can apply it (it changes the build or the workload)."""
        return bool(self.build or self.workload)

    @property
    def operating(self) -> bool:
        """Whether it changes how the build runs (a power limit, a workload setting,
        another circuit) rather than what it is made of."""
        if self.code in OPERATING_ADVICE:
            return True
        return self.applicable and set(self.build) <= OPERATING_BUILD_FIELDS


class Check(Frozen):
    id: NonEmptyStr
    """Stable id, ``<concern>.<check>`` with ``.<n>`` for per-GPU checks."""
    severity: Severity
    reason: NonEmptyStr
    """Reason code; ``core.text.checks`` renders it with ``numbers``."""
    numbers: dict[str, Number] = {}
    fix: Fix | None = None


def worst(checks: tuple[Check, ...]) -> Severity:
    """The most severe severity among ``checks`` ("pass" when empty)."""
    result: Severity = "pass"
    for check in checks:
        if SEVERITY_ORDER[check.severity] > SEVERITY_ORDER[result]:
            result = check.severity
    return result
