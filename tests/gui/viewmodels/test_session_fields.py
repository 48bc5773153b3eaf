"""``SessionViewModel`` edits by field key, without a window."""

from __future__ import annotations

import pytest

from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.session import Session
from core.workloads import find_preset, make_workload
from gui.viewmodels.session import SessionViewModel


@pytest.fixture
def vm(qapp: object) -> SessionViewModel:
    catalog = load_catalog()
    workload = make_workload(find_preset("llama-3.1-8b"), task="inference")
    return SessionViewModel(catalog, Session(builds=(default_build(catalog),), workload=workload))


def test_a_field_edit_is_one_undo_step_in_words(vm: SessionViewModel) -> None:
    assert vm.set_field("serving.streams", 4) is None
    assert vm.workload is not None and vm.workload.serving_settings.streams == 4
    assert vm.undo_stack.undoText() == "Set streams to 4 streams"
    vm.undo_stack.undo()
    assert vm.workload is not None and vm.workload.serving_settings.streams == 1


def test_switching_engine_brings_a_format_it_loads(vm: SessionViewModel) -> None:
    vm.set_field("serving.weights", "q4_k_m")
    vm.set_field("serving.engine", "vllm")
    assert vm.field_value("serving.weights") == "awq-int4"
    assert vm.field_off_reason("serving.flash_attention") is not None
    assert vm.field_off_reason("serving.streams") is None


def test_a_refused_value_leaves_the_workload_and_says_why(vm: SessionViewModel) -> None:
    messages: list[str] = []
    vm.edit_rejected.connect(messages.append)
    before = vm.workload
    assert vm.set_field("serving.weights", "q4_k_m") is None
    assert vm.set_field("serving.engine", "exllamav2") is None
    assert vm.set_field("serving.weights", "q8_0") is not None  # exllamav2 does not load it
    assert messages and vm.workload is not before


def test_gpu_count_and_bridges(vm: SessionViewModel) -> None:
    assert vm.set_value("gpu_count", 1) is None
    assert vm.build_value("gpu_count") == 1
    assert vm.build_field_off_reason("nvlink_bridges") is not None  # one card, no pair


def test_custom_decoder_sizes(vm: SessionViewModel) -> None:
    """32 layers, hidden 4096, 32 heads, 32,000 tokens: Llama-2 7B's shape, 6.7 B params
    (Touvron et al. 2023: 6.74 B)."""
    assert vm.set_custom_decoder(32, 4096, 32, 32000) is None
    assert vm.workload is not None
    assert vm.workload.architecture.params_total == pytest.approx(6.74e9, rel=0.01)
    assert vm.workload.name.startswith("Custom decoder 6.7")
