"""llama.cpp on ROCm: constants fitted on one Strix Halo iGPU's runs with hipBLASLt's GEMM
kernels (lhl/strix-halo-testing), checked on discrete Radeon cards' published runs they
never saw (llm-tracker.info, RX 7900 XTX and Radeon PRO W7900), and the launch command
that sets the library they assume."""

from __future__ import annotations

import json

import pytest

from core.catalog import load_catalog
from core.cli import main
from core.validation.inference import load_inference_rows, predict, resolve
from tests.validation.test_inference_published import BENCHMARKS


def _discrete_rdna3_prompt_rows() -> list[tuple[str, float, float]]:
    catalog = load_catalog()
    out = []
    for row in load_inference_rows(BENCHMARKS / "llm_inference_published.csv"):
        if row.metric != "pp" or row.gpu_model not in ("RX 7900 XTX", "Radeon Pro W7900"):
            continue
        resolved = resolve(row, catalog)
        assert not isinstance(resolved, str), resolved
        out.append((row.gpu_model, row.measured, predict(resolved)))
    return out


def test_rocm_prompt_rates_carry_from_the_strix_halo_to_discrete_radeon_cards() -> None:
    """The three published prompt runs (Mistral 7B Q4_K_M pp512 at 2,893 and 2,558
    tokens/s, Llama-2 7B Q4_0 at a 3,968-token prompt at 2,576) were read 80 % slow while
    ROCm's constants came from the iGPU's default rocBLAS runs, three times slower than
    its hipBLASLt runs; with the hipBLASLt constants they are within 45 %."""
    rows = _discrete_rdna3_prompt_rows()
    assert len(rows) == 3
    for gpu, measured, predicted in rows:
        assert predicted / measured == pytest.approx(1.0, abs=0.45), gpu


def _launch(*args: str, capsys: pytest.CaptureFixture[str]) -> str:
    argv = ["predict", *args, "--workload", "Llama 3.1 8B", "--task", "inference", "--json"]
    assert main(argv) == 0
    return str(json.loads(capsys.readouterr().out)["launch_command"])


def test_the_launch_command_selects_the_gemm_library_rocm_was_fitted_with(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _launch("--gpu", "RX 7900 XTX", capsys=capsys).startswith(
        "ROCBLAS_USE_HIPBLASLT=1 llama-server "
    )
    strix = _launch("--system", "Framework Desktop", "--nodes", "2", capsys=capsys)
    assert [line.split()[:2] for line in strix.splitlines()] == [
        ["ROCBLAS_USE_HIPBLASLT=1", "rpc-server"],
        ["ROCBLAS_USE_HIPBLASLT=1", "llama-server"],
    ]
    # other GPU software has no such switch
    assert _launch("--gpu", "RX 7900 XTX", "--backend", "vulkan", capsys=capsys).startswith(
        "llama-server "
    )
    assert _launch("--gpu", "RTX 4090", capsys=capsys).startswith("llama-server ")


def test_prompts_of_builds_before_cdnas_matrix_core_kernels_are_not_modelled() -> None:
    """llm-tracker.info's MI300X runs (build 3891, October 2024) processed a Llama-2 7B
    Q4_0 prompt at about 1,333 tokens/s, 1.4 % of the card's 1,307 TFLOPS FP16 matrix peak:
    llama.cpp's quantised kernels used CDNA's matrix cores only from July 2025 (pull
    request #14624). Their prompt rows say so instead of scoring the model; their
    generation rows, which those kernels do not run, are still predicted."""
    catalog = load_catalog()
    mi300x = [
        row
        for row in load_inference_rows(BENCHMARKS / "llm_inference_published.csv")
        if row.gpu_model == "MI300X"
    ]
    prompt = [resolve(row, catalog) for row in mi300x if row.metric == "pp"]
    generation = [resolve(row, catalog) for row in mi300x if row.metric == "tg"]
    assert len(prompt) == 3 and all(isinstance(r, str) and "#14624" in r for r in prompt)
    assert len(generation) == 3 and not any(isinstance(r, str) for r in generation)
