"""Published measurements beside an estimate: the bundled calibration rows run on the same
GPU model with the same workload, and the model's validated error for that workload.

``published_for`` looks up the rows of ``resources/benchmarks/throughput_calibration.csv``
(Lambda and NVIDIA DeepLearningExamples) and ``expected_error_pct`` the median absolute
error per workload of ``rigforge validate`` on that file; both come from
``resources/benchmarks/model_errors.json``, written by ``python -m tools.fit.model_errors``
(a test keeps it equal to the CSV and the model in force), so the app never parses the
CSV to show them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from core.catalog import Catalog
from core.errors import RigForgeError

ERRORS_FILE = "model_errors.json"
PRECISION_CLASS = {"fp32": "fp32", "tf32": "fp32", "fp16-amp": "16-bit", "fp16": "16-bit"}
PRECISION_CLASS |= {"bf16": "16-bit"}


@dataclass(frozen=True)
class Published:
    gpu_count: int
    batch: int | None
    precision: str
    throughput: float
    unit: str
    source: str

    @property
    def publisher(self) -> str:
        repo = self.source.split("|", 1)[0]
        return {
            "lambdal/deeplearning-benchmark": "Lambda",
            "NVIDIA/DeepLearningExamples": "NVIDIA DeepLearningExamples",
        }.get(repo, repo)

    def text(self) -> str:
        batch = f" at batch {self.batch}" if self.batch else ""
        gpus = f" on {self.gpu_count} GPUs" if self.gpu_count > 1 else ""
        return (
            f"published: {self.throughput:,.0f} {self.unit}{batch}{gpus}, "
            f"{self.precision}, {self.publisher}"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "gpu_count": self.gpu_count,
            "batch_per_gpu": self.batch,
            "precision": self.precision,
            "throughput": self.throughput,
            "unit": self.unit,
            "publisher": self.publisher,
            "source": self.source,
        }


PUBLISHED_COLUMNS = (
    "gpu_names",
    "preset",
    "gpu_count",
    "batch",
    "precision",
    "throughput",
    "unit",
    "source",
)
"""One published run in ``model_errors.json``'s ``published`` list."""


def published_rows() -> list[list[Any]]:
    """Every calibration row the app can show, as ``PUBLISHED_COLUMNS`` (read from the
    CSV; ``tools.fit.model_errors`` writes them out)."""
    from core.validation.calibration import load_rows, row_preset

    out: list[list[Any]] = []
    for row in load_rows():
        try:
            preset, _settings = row_preset(row)
        except RigForgeError:
            continue
        names = [n for n in (row.note("gpu_canon"), row.gpu_model) if n]
        unit = preset.architecture.throughput_unit
        run = [row.gpu_count, row.batch, row.precision, row.throughput, unit, row.source]
        out.append([names, preset.id, *run])
    return out


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[tuple[str, ...], str, Published], ...]:
    """Every published run once: the GPU names it gives, its preset and the run."""
    out = []
    for names, preset_id, count, batch, precision, throughput, unit, source in _errors()[
        "published"
    ]:
        run = Published(int(count), batch, str(precision), float(throughput), str(unit), source)
        out.append((tuple(names), str(preset_id), run))
    return tuple(out)


@lru_cache(maxsize=4)
def _index(catalog: Catalog) -> dict[tuple[str, str], tuple[Published, ...]]:
    """Rows by (catalog GPU id, preset id); only the few distinct GPU names are looked up."""
    ids: dict[tuple[str, ...], str | None] = {}
    out: dict[tuple[str, str], list[Published]] = {}
    for names, preset_id, run in _rows():
        if names not in ids:
            found = (catalog.find(name, "gpu") for name in names)
            part = next((p for p in found if p is not None), None)
            ids[names] = part.id if part is not None else None
        gpu_id = ids[names]
        if gpu_id is not None:
            out.setdefault((gpu_id, preset_id), []).append(run)
    return {k: tuple(v) for k, v in out.items()}


def published_for(
    catalog: Catalog, gpu_id: str, preset_id: str | None, precision: str | None = None
) -> tuple[Published, ...]:
    """Published runs of ``preset_id`` on ``gpu_id`` (same precision class when given),
    fewest GPUs first."""
    if preset_id is None:
        return ()
    rows = _index(catalog).get((gpu_id, _base_preset(preset_id)), ())
    if precision is not None:
        wanted = PRECISION_CLASS.get(precision, "16-bit" if precision != "fp32" else "fp32")
        rows = tuple(r for r in rows if PRECISION_CLASS.get(r.precision) == wanted)
    return tuple(sorted(rows, key=lambda r: (r.gpu_count, -(r.batch or 0))))


def _base_preset(preset_id: str) -> str:
    return preset_id.removesuffix("-full-softmax")


@lru_cache(maxsize=1)
def _errors() -> dict[str, Any]:
    text = resources.files("resources.benchmarks").joinpath(ERRORS_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def expected_error_pct(preset_id: str | None) -> float | None:
    """The model's median absolute throughput error on the published runs of this
    workload (``None`` when none were published)."""
    if preset_id is None:
        return None
    value = _errors()["by_workload"].get(_base_preset(preset_id))
    return None if value is None else float(value)


def overall_error() -> tuple[float, int]:
    data = _errors()
    return float(data["median_abs_pct_error"]), int(data["rows"])


def accuracy_rows() -> list[tuple[str, int, float]]:
    """(workload preset id, published runs, median abs % error) of the throughput model."""
    data = _errors()
    counts = data.get("rows_by_workload", {})
    return [(k, int(counts.get(k, 0)), float(v)) for k, v in data["by_workload"].items()]


def accuracy_points() -> list[tuple[str, float, float]]:
    """(workload, measured, predicted) of every published run the model was checked on."""
    return [(str(w), float(m), float(p)) for w, m, p in _errors().get("points", [])]
