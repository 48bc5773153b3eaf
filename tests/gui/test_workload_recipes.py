"""The training recipe in the workload editor: software stack, master weights, optimizer
in backward and offload, as a user picks them; refused picks and undo put things back."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox

from gui.views.main_window import MainWindow
from tests.gui.conftest import card


def _choose(combo: QComboBox, text: str) -> None:
    index = combo.findText(text)
    assert index >= 0, text
    combo.setCurrentIndex(index)
    combo.activated.emit(index)  # what a user's pick sends


def _rate(text: str) -> float:
    return float(text.split()[0].replace(",", ""))


def _train_llama_2_7b(window: MainWindow) -> None:
    editor = window.workload_editor
    editor.preset.setCurrentIndex(editor.preset.findData("llama-2-7b"))
    editor.preset.activated.emit(editor.preset.currentIndex())
    _choose(editor.input("task"), "training")
    _choose(editor.input("precision"), "bf16")
    workload = window.session_view_model.workload
    assert workload is not None and workload.preset_id == "llama-2-7b"
    assert (workload.task, workload.precision) == ("training", "bf16")


def test_every_new_choice_is_offered(window: MainWindow) -> None:
    editor = window.workload_editor
    optimizers = [
        editor.input("optimizer").itemText(i) for i in range(editor.input("optimizer").count())
    ]
    assert "adamw8bit" in optimizers and "paged-adamw8bit" in optimizers
    stacks = [editor.input("stack").itemText(i) for i in range(editor.input("stack").count())]
    assert stacks == [
        "pytorch-eager",
        "pytorch",
        "pytorch-compile",
        "transformer-engine",
        "unsloth",
    ]
    assert editor.input("stack").currentText() == "pytorch"  # the model's default, shown
    assert editor.input("master_weights").currentText() == "fp32"
    assert editor.input("offload").currentText() == "none"
    assert not editor.input("optimizer_in_backward").isChecked()
    for widget in (editor.input("stack"), editor.input("master_weights"), editor.input("offload")):
        assert widget.toolTip()


def test_compiled_stack_is_faster_than_eager(window: MainWindow) -> None:
    editor = window.workload_editor
    _choose(editor.input("stack"), "pytorch-eager")
    workload = window.session_view_model.workload
    assert workload is not None and workload.stack == "pytorch-eager"
    eager = card(window, "throughput")
    _choose(editor.input("stack"), "pytorch-compile")
    workload = window.session_view_model.workload
    assert workload is not None and workload.stack == "pytorch-compile"
    compiled = card(window, "throughput")
    assert eager.endswith("images/s") and compiled.endswith("images/s")
    # torch.compile fuses elementwise chains and launches fewer kernels: never slower
    assert _rate(compiled) > _rate(eager)


def test_no_master_weights_needs_less_vram(window: MainWindow) -> None:
    _train_llama_2_7b(window)
    editor = window.workload_editor
    with_master = window.analysis_view_model.analysis.vram.total_gib
    _choose(editor.input("master_weights"), "none")
    workload = window.session_view_model.workload
    assert workload is not None and workload.master_weights == "none"
    without = window.analysis_view_model.analysis.vram.total_gib
    # the fp32 master copy alone is 4 B per parameter: 6.74e9 x 4 B / 2^30 = 25.1 GiB
    # (bf16 optimizer states, when the model counts them, save more on top)
    assert without < with_master - 24


def test_optimizer_in_backward_is_kept_and_needs_no_more_vram(window: MainWindow) -> None:
    _train_llama_2_7b(window)
    editor = window.workload_editor
    before = window.analysis_view_model.analysis.vram.total_gib
    editor.input("optimizer_in_backward").setChecked(True)
    workload = window.session_view_model.workload
    assert workload is not None and workload.optimizer_in_backward
    assert window.analysis_view_model.analysis.vram.total_gib <= before


def test_activation_offload_of_a_cnn_is_refused(window: MainWindow) -> None:
    editor = window.workload_editor
    workload = window.session_view_model.workload
    assert workload is not None and workload.architecture.kind == "cnn"  # ResNet-50
    _choose(editor.input("offload"), "optimizer")
    assert window.session_view_model.workload.offload == "optimizer"  # type: ignore[union-attr]
    _choose(editor.input("offload"), "activations")
    assert window.session_view_model.workload.offload == "optimizer"  # type: ignore[union-attr]
    assert editor.input("offload").currentText() == "optimizer"
    assert "Not changed" in window.statusBar().currentMessage()


def test_no_master_weights_with_fp32_is_refused(window: MainWindow) -> None:
    editor = window.workload_editor
    _choose(editor.input("precision"), "fp32")
    _choose(editor.input("master_weights"), "none")
    workload = window.session_view_model.workload
    assert workload is not None and workload.master_weights == "fp32"
    assert editor.input("master_weights").currentText() == "fp32"


def test_undo_restores_the_previous_stack(window: MainWindow) -> None:
    editor = window.workload_editor
    _choose(editor.input("stack"), "transformer-engine")
    window.undo_action.trigger()
    assert window.session_view_model.workload.stack == "pytorch"  # type: ignore[union-attr]
    assert editor.input("stack").currentText() == "pytorch"
    window.redo_action.trigger()
    assert editor.input("stack").currentText() == "transformer-engine"
    # consecutive edits of one field undo as one step (as for every field): another edit
    # in between keeps the two stack picks apart
    editor.input("batch_size").setValue(64)
    _choose(editor.input("stack"), "unsloth")
    assert window.session_view_model.workload.stack == "unsloth"  # type: ignore[union-attr]
    window.undo_action.trigger()
    assert window.session_view_model.workload.stack == "transformer-engine"  # type: ignore[union-attr]
    assert editor.input("stack").currentText() == "transformer-engine"


def test_recipe_fields_are_off_for_inference(window: MainWindow) -> None:
    editor = window.workload_editor
    recipe = (
        editor.input("master_weights"),
        editor.input("optimizer_in_backward"),
        editor.input("offload"),
    )
    assert all(widget.isEnabled() for widget in recipe)
    _choose(editor.input("task"), "inference")  # ResNet-50 inference: not LLM serving
    assert window.session_view_model.workload.task == "inference"  # type: ignore[union-attr]
    assert not any(widget.isEnabled() for widget in recipe)
    assert editor.input("stack").isEnabled()
    _choose(editor.input("task"), "training")
    assert all(widget.isEnabled() for widget in recipe)


def test_serving_an_llm_turns_the_stack_off(window: MainWindow) -> None:
    editor = window.workload_editor
    editor.preset.setCurrentIndex(editor.preset.findData("llama-3-8b"))
    editor.preset.activated.emit(editor.preset.currentIndex())
    _choose(editor.input("task"), "inference")
    assert window.session_view_model.workload.is_serving  # type: ignore[union-attr]
    assert not editor.input("stack").isEnabled()
    assert not editor.input("master_weights").isEnabled()
    assert editor.input("serving.engine").isEnabled()


def test_size_fields_say_na_for_a_convnet_and_custom_starts_from_a_decoder(
    window: MainWindow,
) -> None:
    """ResNet-50 (the default) has no decoder sizes: the boxes read "n/a" and are off;
    Custom model then starts from Llama-2 7B's config.json (32 layers, hidden 4096, 32
    heads, 32,000-token vocabulary); a decoder preset shows its own sizes, labelled."""
    editor = window.workload_editor
    boxes = (editor.custom_layers, editor.custom_hidden, editor.custom_heads, editor.custom_vocab)
    assert window.session_view_model.workload.preset_id == "resnet50-v1.5"  # type: ignore[union-attr]
    assert [box.text() for box in boxes] == ["n/a"] * 4
    assert not any(box.isEnabled() for box in boxes)
    assert "not a transformer decoder" in editor.custom_layers.toolTip()
    _choose(editor.preset, "Custom model")
    arch = window.session_view_model.workload.architecture  # type: ignore[union-attr]
    assert (arch.layers, arch.hidden_size, arch.heads, arch.vocab_size) == (32, 4096, 32, 32000)
    assert all(box.isEnabled() for box in boxes)
    assert editor.custom_layers.text() == "32 layers"
    editor.preset.setCurrentIndex(editor.preset.findData("llama-3-8b"))
    editor.preset.activated.emit(editor.preset.currentIndex())
    # Llama 3 8B (Meta's config.json): 32 layers, hidden 4096, 32 heads, 128,256 tokens
    assert [box.text() for box in boxes] == [
        "32 layers",
        "4096 hidden",
        "32 heads",
        "128256 tokens",
    ]
    assert "Transformer layers" in editor.custom_layers.toolTip()


def test_chunked_loss_needs_less_vram_and_only_applies_to_llms(window: MainWindow) -> None:
    _train_llama_2_7b(window)
    editor = window.workload_editor
    assert editor.input("chunked_loss").isEnabled() and editor.input("chunked_loss").toolTip()
    before = window.analysis_view_model.analysis.vram
    editor.input("chunked_loss").setChecked(True)
    workload = window.session_view_model.workload
    assert workload is not None and workload.chunked_loss
    # Llama 2's 32,000-token vocabulary: under PyTorch 2 the logits go from 16 B each to
    # 7.25 B (2 + 4 kept, 10/8 in flight), 8.75 B x tokens x 32,000 less activation memory
    after = window.analysis_view_model.analysis.vram
    tokens = workload.tokens_per_sequence * workload.batch_size
    saved = before.breakdown.activations_gib - after.breakdown.activations_gib
    assert saved == pytest.approx(8.75 * tokens * 32_000 / 2**30, rel=1e-6)
    assert after.total_gib < before.total_gib
    window.undo_action.trigger()
    workload = window.session_view_model.workload
    assert workload is not None and not workload.chunked_loss
    # a convnet has no vocabulary: the box is disabled
    editor.preset.setCurrentIndex(editor.preset.findData("resnet50-v1.5"))
    editor.preset.activated.emit(editor.preset.currentIndex())
    assert not editor.input("chunked_loss").isEnabled()


def test_lora_rank_and_targets_set_the_adapters(window: MainWindow) -> None:
    _train_llama_2_7b(window)
    editor = window.workload_editor
    assert not editor.input("lora.rank").isEnabled()  # full training has no adapters
    _choose(editor.input("task"), "lora")
    assert editor.input("lora.rank").isEnabled() and editor.input("lora.targets").isEnabled()
    assert (editor.input("lora.rank").value(), editor.input("lora.targets").currentText()) == (
        16,
        "q, v",
    )
    editor.input("lora.rank").setValue(64)
    _choose(editor.input("lora.targets"), "all linear")
    workload = window.session_view_model.workload
    assert workload is not None and workload.lora is not None
    assert workload.lora.rank == 64
    assert set(workload.lora.targets) == {"q", "k", "v", "o", "gate", "up", "down"}
    # Llama-2 7B, rank 64 on every linear layer: 32 x 64 x (4 x (4096 + 4096) +
    # 3 x (4096 + 11008)) = 159,907,840 adapter weights
    assert workload.trainable_params == 159_907_840
    # QLoRA keeps the adapters and quantises the base
    _choose(editor.input("task"), "qlora")
    workload = window.session_view_model.workload
    assert workload is not None and workload.task == "qlora" and workload.lora is not None
    assert (workload.lora.rank, workload.lora.base_bits) == (64, 4)
    _choose(editor.input("task"), "lora")
    workload = window.session_view_model.workload
    assert workload is not None and workload.lora is not None and workload.lora.base_bits == 16
    # the two task edits in a row undo as one step: back to LoRA with the adapters
    # picked before them, and the editor shows them
    window.undo_action.trigger()
    workload = window.session_view_model.workload
    assert workload is not None and workload.task == "lora" and workload.lora is not None
    assert workload.lora.rank == 64 and editor.input("lora.targets").currentText() == "all linear"
    window.undo_action.trigger()  # the targets
    assert editor.input("lora.targets").currentText() == "q, v"


def test_pipeline_stages_chunks_and_micro_batches_edit_the_workload(window: MainWindow) -> None:
    _train_llama_2_7b(window)
    editor = window.workload_editor
    assert (
        editor.input("pp_degree").isEnabled() and not editor.input("pp_virtual_stages").isEnabled()
    )
    # one stage reads as what it is, not "1 stages"
    assert (editor.input("pp_degree").text(), editor.input("grad_accum_steps").text()) == (
        "no pipeline",
        "1 micro-batch",
    )
    editor.input("grad_accum_steps").setValue(8)
    editor.input("pp_degree").setValue(2)
    assert editor.input("pp_virtual_stages").isEnabled()
    editor.input("pp_virtual_stages").setValue(4)
    workload = window.session_view_model.workload
    assert workload is not None
    assert (workload.pp_degree, workload.pp_virtual_stages, workload.grad_accum_steps) == (2, 4, 8)
    # the step table is then per micro-batch, and says so
    table = window.results.step_table
    last = table.rowCount() - 1
    assert table.item(last, 0).text() == "micro-batch"
    assert "one micro-batch of 8 per optimizer step" in table.toolTip()
    assert "pipeline bubble" in table.toolTip()
    # one stage has no chunks: both go back in one edit, and one undo restores both
    editor.input("pp_degree").setValue(1)
    workload = window.session_view_model.workload
    assert workload is not None and (workload.pp_degree, workload.pp_virtual_stages) == (1, 1)
    window.undo_action.trigger()
    workload = window.session_view_model.workload
    assert workload is not None and (workload.pp_degree, workload.pp_virtual_stages) == (2, 4)
    assert (editor.input("pp_degree").value(), editor.input("pp_virtual_stages").value()) == (2, 4)
    assert editor.input("pp_degree").text() == "2 stages"
    # 32 layers cannot make 2 stages of 32 chunks: refused, and the box shows what holds
    editor.input("pp_virtual_stages").setValue(32)
    workload = window.session_view_model.workload
    assert workload is not None and workload.pp_virtual_stages == 4
    assert editor.input("pp_virtual_stages").value() == 4
    # inference cannot run this pipeline: the task changes and the pipeline goes with it
    _choose(editor.input("task"), "inference")
    workload = window.session_view_model.workload
    assert workload is not None and workload.task == "inference"
    assert (workload.pp_degree, workload.pp_virtual_stages) == (1, 1)
    assert (
        editor.input("pp_degree").text() == "no pipeline"
        and not editor.input("pp_degree").isEnabled()
    )
    window.undo_action.trigger()  # one undo: training on the 2 x 4 pipeline again
    workload = window.session_view_model.workload
    assert workload is not None and workload.task == "training"
    assert (workload.pp_degree, workload.pp_virtual_stages) == (2, 4)


def test_pipeline_box_is_off_for_models_without_transformer_layers(window: MainWindow) -> None:
    editor = window.workload_editor
    editor.preset.setCurrentIndex(editor.preset.findData("resnet50-v1.5"))
    editor.preset.activated.emit(editor.preset.currentIndex())
    _choose(editor.input("task"), "training")
    assert not editor.input("pp_degree").isEnabled()
    _train_llama_2_7b(window)
    assert editor.input("pp_degree").isEnabled()


def test_offloaded_activations_turn_the_checkpointing_choice_off_and_say_why(
    window: MainWindow,
) -> None:
    """Offloaded activations are layer checkpoints (every layer recomputed): the
    checkpointing picker does not apply then, and its tooltip says so."""
    editor = window.workload_editor
    _train_llama_2_7b(window)
    assert editor.input("checkpointing").isEnabled()
    _choose(editor.input("offload"), "activations")
    assert not editor.input("checkpointing").isEnabled()
    assert "every layer is recomputed" in editor.input("checkpointing").toolTip()
    _choose(editor.input("offload"), "optimizer")  # the optimizer alone: the choice applies
    assert editor.input("checkpointing").isEnabled()
    assert "every layer is recomputed" not in editor.input("checkpointing").toolTip()
