"""Read a calibration CSV (columns of throughput_calibration.csv) and resolve each row.

A row resolves when its GPU (``gpu_model`` or the ``gpu_canon=`` key in
``notes``) is in the catalog and its ``model`` names a workload preset. Rows that
do not resolve are kept with the reason, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path

from core.calc.performance.profile import profile_from_workload, with_run
from core.catalog.catalog import Catalog
from core.errors import FileFormatError, RigForgeError
from core.files.safe_json import decode_text
from core.files.safe_read import read_limited
from core.models.parts import GPU
from core.models.throughput import InterconnectChoice, WorkProfile
from core.models.workload import WorkloadPreset
from core.validation.csv_rows import (
    MAX_ROW_BATCH,
    bounded_whole,
    csv_records,
    gpu_count,
    measurement,
)
from core.workloads import find_preset, make_workload

REQUIRED_COLUMNS = (
    "model",
    "gpu_model",
    "interconnect",
    "gpu_count",
    "precision",
    "batch_size_per_gpu",
    "throughput",
    "notes",
)
BUNDLED = "throughput_calibration.csv"
MAX_CSV_BYTES = 50 * 1024 * 1024
_NOTE_KEY = re.compile(r"(?:^|;)\s*([a-z_0-9]+)=([^;]*)")


@dataclass(frozen=True)
class CalibrationRow:
    index: int
    model: str
    gpu_model: str
    interconnect: str
    gpu_count: int
    precision: str
    batch: int | None
    throughput: float
    notes: str
    source: str

    def note(self, key: str) -> str | None:
        for match in _NOTE_KEY.finditer(self.notes):
            if match.group(1) == key:
                return match.group(2).strip()
        return None

    @property
    def source_repo(self) -> str:
        """The ``source_repo`` column (owner/name of the repository the row was read from)."""
        return self.source.split("|", 1)[0]

    @cached_property
    def run_key(self) -> tuple[object, ...]:
        """What the row ran, without its line and measurement: rows with equal keys resolve
        to the same workload and prediction."""
        return (
            self.model,
            self.gpu_model,
            self.precision,
            self.batch,
            self.interconnect,
            self.source,
            self.notes,
            self.gpu_count,
        )

    @cached_property
    def flagged(self) -> bool:
        return "FLAG:" in self.notes

    @cached_property
    def group_key(self) -> tuple[str, str, str, str]:
        """Rows comparable for scaling: same source file and commit, family, model, precision."""
        return (self.source, self.note("family") or "", self.model, self.precision)


@dataclass(frozen=True)
class ResolvedRow:
    row: CalibrationRow
    gpu: GPU
    profile: WorkProfile
    interconnect: InterconnectChoice


def read_rows(text: str) -> list[CalibrationRow]:
    """Parse CSV text; a missing column or a bad number raises ``FileFormatError``.

    A row that repeats an earlier one cell for cell (a file may repeat its runs) is
    checked once."""
    header, records = csv_records(text)
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise FileFormatError(f"calibration CSV lacks column(s): {', '.join(missing)}")
    at = {
        name: header.index(name) for name in (*REQUIRED_COLUMNS, *_SOURCE_COLUMNS) if name in header
    }
    seen: dict[tuple[str, ...], CalibrationRow] = {}
    rows = []
    for index, cells in records:
        key = tuple(cells)
        known = seen.get(key)
        if known is not None:
            again = object.__new__(CalibrationRow)  # a copy that keeps what was worked
            again.__dict__.update(known.__dict__, index=index)  # out of its notes
            rows.append(again)
            continue
        try:
            batch_text = cells[at["batch_size_per_gpu"]].strip()
            row = CalibrationRow(
                index=index,
                model=cells[at["model"]].strip(),
                gpu_model=cells[at["gpu_model"]].strip(),
                interconnect=(cells[at["interconnect"]] or "unknown").strip(),
                gpu_count=gpu_count(cells[at["gpu_count"]]),
                precision=cells[at["precision"]].strip(),
                batch=(
                    bounded_whole(
                        batch_text, "batch_size_per_gpu", 1, MAX_ROW_BATCH, fractions=True
                    )
                    if batch_text
                    else None
                ),
                throughput=measurement(cells[at["throughput"]], "throughput"),
                notes=cells[at["notes"]],
                source="|".join(cells[at[k]] if k in at else "" for k in _SOURCE_COLUMNS),
            )
        except (TypeError, ValueError, OverflowError) as error:
            raise FileFormatError(f"calibration CSV line {index}: {error}") from None
        # worked out once, copied with the row to its repeats
        row.run_key, row.group_key, row.flagged  # noqa: B018
        seen[key] = row
        rows.append(row)
    return rows


_SOURCE_COLUMNS = ("source_repo", "source_path", "source_commit")


def load_rows(path: Path | None = None) -> list[CalibrationRow]:
    """Rows of ``path``, or of the bundled copy of the shared calibration set."""
    if path is None:
        text = resources.files("resources.benchmarks").joinpath(BUNDLED).read_text("utf-8")
    else:
        text = decode_text(read_limited(path, MAX_CSV_BYTES))
    return read_rows(text)


_SOURCE_VARIANTS: dict[tuple[str, str], tuple[str, dict[str, str]]] = {
    ("lambdal/deeplearning-benchmark", "transformer-xl-base"): (
        "transformer-xl-base-full-softmax",
        {"parallelism": "independent"},
    ),
    ("lambdal/deeplearning-benchmark", "transformer-xl-large"): (
        "transformer-xl-large-full-softmax",
        {"parallelism": "independent"},
    ),
}
"""How a source really ran a workload, where it differs from the preset's defaults.

Lambda's deeplearning-benchmark (pytorch/scripts/benchmark_pytorch.sh with
config_v0/ and config_v1/config_pytorch_*.sh) launches DLE Transformer-XL ``train.py``
through ``torch.distributed.launch`` without ``--adaptive``, ``--config_file`` or
``--multi_gpu ddp``: a full softmax over the WikiText-103 vocabulary (large: tgt_len =
mem_len = 256), and since DLE ``train.py`` wraps the model in DDP only under
``--multi_gpu ddp``, N processes train without gradient exchange."""

_HALF_MODEL_PRESETS = frozenset(
    {
        "bert-base-squad",
        "bert-large-squad",
        "bert-large-pretrain-128",
        "bert-large-pretrain-512",
        "gnmt-v2",
        "transformer-xl-base",
        "transformer-xl-large",
        "transformer-xl-base-full-softmax",
        "transformer-xl-large-full-softmax",
    }
)
"""Workloads whose DLE training scripts (run by every calibration source) use apex AMP at
opt level O2 - the model cast to half, so all activations are 16-bit - rather than autocast:
BERT ``run_squad.py`` and ``run_pretraining.py`` (``amp.initialize(..., opt_level="O2")``),
GNMT ``seq2seq/train/trainer.py`` (``opt_level='O2'`` for ``--math fp16``, DLE GNMT README
"Mixed precision training"), Transformer-XL ``train.py`` (``--amp apex`` and
``--apex_amp_opt_level O2`` are its defaults). ResNet-50, SSD, Tacotron 2 and WaveGlow use
autocast / O1."""

_P2P_DISABLED_SOURCES = frozenset({"lambdal/deeplearning-benchmark"})
"""Sources whose multi-GPU runs exchange gradients through host memory: Lambda's
pytorch/scripts/benchmark_pytorch.sh exports ``NCCL_P2P_DISABLE=1`` before every run,
so NVLink and PCIe peer-to-peer go unused (its "NVLink" and "PCIe" 2080 Ti rows scale
alike)."""

_PRECISION = {"fp32": "fp32", "tf32": "tf32", "fp16-amp": "fp16", "fp16": "fp16", "bf16": "bf16"}
_INTERCONNECT: dict[str, InterconnectChoice] = {"nvlink": "nvlink", "pcie": "pcie", "host": "host"}


_CHANNELS_LAST_PATHS = (
    ("PyTorch/Classification/ConvNets/", True),
    ("PyTorch/Detection/SSD/", False),
    ("MxNet/Classification/RN50v1.5/", True),
)
"""DeepLearningExamples READMEs whose runs use channels-last (NHWC) tensors: (path prefix,
whether only the mixed-precision runs do). PyTorch ConvNets ``configs.yml`` sets
``memory_format: nhwc`` for every AMP configuration; SSD300 ``main.py`` defaults to
``--data-layout channels_last`` at every precision; MXNet RN50 ``runner`` passes NHWC
layouts for float16. Lambda runs ``main.py --amp`` without the flag and its own SSD fork,
which has no layout option, and DLE TensorFlow defaults to ``--data_format NCHW``: NCHW."""


def _ran_channels_last(row: CalibrationRow) -> bool:
    if not row.source_repo.startswith("NVIDIA/"):
        return False
    path = row.source.split("|")[1] if "|" in row.source else row.source
    for prefix, amp_only in _CHANNELS_LAST_PATHS:
        if path.startswith(prefix):
            return not amp_only or row.precision.lower() in ("fp16-amp", "fp16", "bf16")
    return False


_CONTAINER = re.compile(r"container [A-Za-z]+[-: ](\d\d)\.(\d\d)")
"""A DeepLearningExamples row's NGC container, as its notes give it (``container
pytorch-20.06-py3``, ``container mxnet-22.10-py3``, ``container pytorch:21.11-py3``)."""


def _ran_older_kernels(row: CalibrationRow) -> bool:
    """Whether the row ran in an NGC container released before 2022 (its cuDNN and cuBLAS
    kernels run at ``ThroughputConstants.older_kernels_speed``).

    Lambda's first summary table (pytorch/results without ``_v1``) ran NGC 20.01 to
    21.07 (its README from aca8d370 to fa013b8e; PyTorch 1.4, 1.7 and 1.9 in the logs);
    its ``_v1`` and ``results_v2`` tables ran 22.09 and later (PyTorch 1.13, 2.1 and
    2.3 nv24.03 in the logs). A DLE row's notes name its container, whatever the
    framework (PyTorch, TensorFlow, MXNet: the same release ships the same cuDNN and
    cuBLAS; the factor itself was measured on PyTorch runs); an unnamed one counts as
    current.
    """
    if row.source_repo == "lambdal/deeplearning-benchmark":
        return "Lambda v0 summary table" in row.notes
    match = _CONTAINER.search(row.notes)
    return match is not None and int(match.group(1)) < 22


def row_preset(row: CalibrationRow) -> tuple[WorkloadPreset, dict[str, str]]:
    """The workload preset a row ran and the run settings its source used.

    Raises ``RigForgeError`` when ``row.model`` names no preset.
    """
    preset = find_preset(row.model)
    variant = _SOURCE_VARIANTS.get((row.source_repo, preset.id))
    if variant is None:
        return preset, {}
    return find_preset(variant[0]), dict(variant[1])


def resolve(row: CalibrationRow, catalog: Catalog) -> ResolvedRow | str:
    """The GPU, profile and interconnect of a row, or the reason it cannot be resolved."""
    gpu = None
    for name in (row.note("gpu_canon"), row.gpu_model):
        if name:
            try:
                gpu = catalog.gpu(name)
                break
            except RigForgeError:
                continue
    if gpu is None:
        return f"GPU {row.gpu_model!r} is not in the catalog"
    precision = _PRECISION.get(row.precision.lower())
    if precision is None:
        return f"unknown precision {row.precision!r}"
    try:
        preset, settings = row_preset(row)
        # Lambda and DeepLearningExamples ran eager PyTorch with autocast (2019-2023)
        workload = make_workload(
            preset, precision=precision, **({"stack": "pytorch-eager"} | settings)
        )
    except RigForgeError as error:
        return f"workload {row.model!r}: {error}"
    profile = with_run(profile_from_workload(workload), batch=row.batch)
    if preset.id in _HALF_MODEL_PRESETS:
        profile = profile.model_copy(update={"half_activations": True})
    if _ran_channels_last(row):
        profile = profile.model_copy(update={"channels_last": True})
    if _ran_older_kernels(row):
        profile = profile.model_copy(update={"older_kernels": True})
    interconnect = _INTERCONNECT.get(row.interconnect.lower(), "auto")
    if row.source_repo in _P2P_DISABLED_SOURCES:
        interconnect = "host"
    return ResolvedRow(row, gpu, profile, interconnect)
