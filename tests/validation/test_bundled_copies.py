"""The bundled copies of the shared reference measurements are the files themselves.

``resources/benchmarks/`` carries copies of the calibration files so that a user (and a
checkout on its own) can run ``rigforge validate`` on them; where the shared reference
data sits beside the checkout, each copy must be byte for byte the same file.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
COPIES = {
    "benchmarks/throughput_calibration.csv": "throughput_calibration.csv",
    "benchmarks/llm_inference_calibration.csv": "llm_inference_calibration.csv",
    "benchmarks/training_modern_calibration.csv": "training_modern_calibration.csv",
    "benchmarks/vision_inference_calibration.csv": "vision_inference_calibration.csv",
    "memory/llm_finetune_memory_calibration.csv": "llm_finetune_memory_calibration.csv",
}


@pytest.mark.parametrize("shared", list(COPIES))
def test_bundled_copy_is_the_shared_file(shared: str) -> None:
    bundled = ROOT / "resources" / "benchmarks" / COPIES[shared]
    assert bundled.is_file(), f"{bundled.name} is not bundled"
    original = SHARED / shared
    if not original.is_file():
        pytest.skip("the shared reference data is not beside this checkout")
    assert bundled.read_bytes() == original.read_bytes(), f"{bundled.name} differs from {shared}"
