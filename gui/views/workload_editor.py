"""Workload editor: preset search, custom models, and how the workload runs."""

from __future__ import annotations

from typing import Any, get_args

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import RigForgeError
from core.models.session import Session
from core.models.workload import (
    ALL_LINEAR,
    ENGINE_WEIGHTS,
    Architecture,
    Checkpointing,
    Engine,
    KvFormat,
    MasterWeights,
    Offload,
    Optimizer,
    Split,
    Stack,
    WeightsFormat,
    Workload,
    lora_for_task,
)
from core.workloads import load_hf_config, load_presets
from core.workloads.hf_config import architecture_from_hf_config
from gui.viewmodels.session import SessionViewModel, default_workload, edit_text
from gui.views import plain
from gui.views.editor_widgets import compact_form, spin_box

TASKS = ("training", "lora", "qlora", "inference")
PRECISIONS = ("fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4")
OPTIMIZERS = get_args(Optimizer)
CHECKPOINTING = get_args(Checkpointing)
PARALLELISM = ("data", "zero1", "zero2", "zero3", "fsdp", "independent")
TARGETS = ("none", "epochs", "tokens")
STACKS = get_args(Stack)
MASTER_WEIGHTS = get_args(MasterWeights)
OFFLOADS = get_args(Offload)
ENGINES = get_args(Engine)
WEIGHTS = get_args(WeightsFormat)
KV_FORMATS = get_args(KvFormat)
SPLITS = get_args(Split)
CUSTOM = "__custom__"
LORA_TARGET_CHOICES: dict[str, tuple[str, ...]] = {
    "q, v": ("q", "v"),
    "q, k, v": ("q", "k", "v"),
    "q, k, v, o": ("q", "k", "v", "o"),
    "all linear": ALL_LINEAR,
}


def _targets_choice(targets: tuple[str, ...]) -> str:
    """The targets combo's label for a set of adapted projections."""
    for label, names in LORA_TARGET_CHOICES.items():
        if set(names) == set(targets):
            return label
    return ", ".join(targets)


def _targets_of(label: str) -> tuple[str, ...]:
    return LORA_TARGET_CHOICES.get(label) or tuple(t.strip() for t in label.split(","))


def _combo(items: tuple[str, ...], tip: str) -> QComboBox:
    combo = QComboBox()
    combo.addItems(items)
    combo.setToolTip(plain.tip(tip))
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(5)
    return combo


def _starting_decoder() -> Architecture:
    return next(p.architecture for p in load_presets() if p.id == "llama-2-7b")


class WorkloadEditorPanel(QWidget):
    def __init__(self, view_model: SessionViewModel) -> None:
        super().__init__()
        self._vm = view_model
        self._shown: Workload | None = None
        self._size_tips: dict[QWidget, str] = {}
        self._sizes_na = False
        """The size fields read "n/a": the shown model is not a transformer decoder."""
        self.preset = QComboBox()
        self.preset.setObjectName("presetPicker")
        self.preset.setEditable(True)
        self.preset.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.preset.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.preset.setMinimumContentsLength(14)
        for preset in load_presets():
            self.preset.addItem(preset.name, preset.id)
            self.preset.setItemData(
                self.preset.count() - 1,
                plain.tip(preset.notes or preset.name),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.preset.addItem("Custom model", CUSTOM)
        completer = QCompleter(self.preset.model(), self.preset)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.preset.setCompleter(completer)
        self.import_button = QPushButton("Import HF config.json…")
        self.import_button.setToolTip(
            plain.tip(
                "Read a Hugging Face config.json (Llama, Mistral, Mixtral, GPT-2, BERT) offline"
            )
        )
        self.custom_layers = spin_box(
            1, 256, "Transformer layers (decoder, Llama-style)", suffix=" layers"
        )
        self.custom_hidden = spin_box(64, 65536, "Hidden size", suffix=" hidden")
        self.custom_hidden.setSingleStep(256)
        self.custom_heads = spin_box(1, 512, "Attention heads", suffix=" heads")
        self.custom_vocab = spin_box(256, 1_000_000, "Vocabulary size", suffix=" tokens")
        self.custom_apply = QPushButton("Use these sizes")
        self.task = _combo(TASKS, "Full training, LoRA/QLoRA fine-tuning, or inference")
        self.precision = _combo(PRECISIONS, "Compute precision (fp16/bf16 = mixed precision)")
        self.stack = _combo(
            STACKS,
            "Software that runs the model: plain PyTorch (eager or default), torch.compile, "
            "Transformer Engine or Unsloth; the more it fuses, the faster it runs",
        )
        self.batch = spin_box(1, 65536, "Per-GPU micro-batch size")
        self.seq_len = spin_box(
            0, 1_048_576, "Tokens per sequence (0 = model default)", special="default"
        )
        self.optimizer = _combo(OPTIMIZERS, "Optimizer (sets optimizer-state bytes per parameter)")
        self.checkpointing = _combo(CHECKPOINTING, "Activation (gradient) checkpointing")
        self.parallelism = _combo(PARALLELISM, "How the GPUs share the work")
        self.tp_degree = spin_box(1, 64, "Tensor-parallel degree")
        self.pp_degree = spin_box(
            1,
            64,
            "Pipeline-parallel stages: each GPU of a pipeline holds that share of the layers; "
            "the stages wait while the pipeline fills and drains (the pipeline bubble)",
            suffix=" stages",
            special="no pipeline",
        )
        self.pp_virtual_stages = spin_box(
            1,
            64,
            "Model chunks per pipeline GPU (interleaved schedule, Megatron's virtual "
            "pipeline): the bubble shrinks by this factor",
            suffix=" chunks",
            special="1 chunk",
        )
        self.grad_accum = spin_box(
            1,
            100_000,
            "Micro-batches per optimizer step (gradient accumulation): gradients are "
            "exchanged once per step, and a pipeline's bubble is spread over them",
            suffix=" micro-batches",
            special="1 micro-batch",
        )
        self.master_weights = _combo(
            MASTER_WEIGHTS,
            "fp32: keep an fp32 copy of the weights for the optimizer (usual mixed precision); "
            "none: train the bf16/fp16 weights directly, which needs less memory",
        )
        self.optimizer_in_backward = QCheckBox("step in backward")
        self.optimizer_in_backward.setToolTip(
            plain.tip(
                "Update each layer as soon as its gradients are ready, so the gradients of "
                "the whole model are never in memory at once"
            )
        )
        self.lora_rank = spin_box(1, 4096, "LoRA/QLoRA adapter rank r", suffix=" rank")
        self.lora_targets = _combo(
            tuple(LORA_TARGET_CHOICES),
            "Projections that get adapters: the attention's q and v (LoRA's usual), all four "
            "attention projections, or every linear layer (QLoRA's usual)",
        )
        self.chunked_loss = QCheckBox("chunked loss")
        self.chunked_loss.setToolTip(
            plain.tip(
                "Compute the cross-entropy one chunk of tokens at a time (torchtune's "
                "chunked output loss), so the fp32 copy of the logits is never whole"
            )
        )
        self.offload_mode = _combo(
            OFFLOADS,
            "Keep activations, optimizer state or both in the computer's RAM: "
            "less GPU memory, but slower (copied over PCIe)",
        )
        self.offload = QCheckBox("ZeRO offload")
        self.offload.setToolTip(
            plain.tip("ZeRO-Offload: optimizer state and parameters in CPU memory (ZeRO or FSDP)")
        )
        self.dataset = spin_box(
            0, 2_000_000_000, "Samples in the dataset (0 = unknown)", special="unknown"
        )
        self.bytes_per_sample = QDoubleSpinBox()
        self.bytes_per_sample.setRange(0, 1e9)
        self.bytes_per_sample.setDecimals(0)
        self.bytes_per_sample.setSpecialValueText("model default")
        self.bytes_per_sample.setSuffix(" B/sample")
        self.bytes_per_sample.setKeyboardTracking(False)
        self.bytes_per_sample.setToolTip(
            plain.tip("Bytes read per sample (0 = the model's default)")
        )
        self.target_kind = _combo(TARGETS, "Training target: epochs over the dataset, or tokens")
        self.target_value = QDoubleSpinBox()
        self.target_value.setRange(0, 1e15)
        self.target_value.setDecimals(1)
        self.target_value.setKeyboardTracking(False)
        for spin in (self.bytes_per_sample, self.target_value):
            spin.setMinimumWidth(60)
        self.engine = _combo(ENGINES, "Inference engine (its kernels and memory reservation)")
        self.weights = _combo(WEIGHTS, "Weights format (bits per weight)")
        self.kv_cache = _combo(KV_FORMATS, "KV-cache precision")
        self.prompt_len = spin_box(1, 10_000_000, "Tokens of the prompt")
        self.gen_len = spin_box(1, 10_000_000, "Tokens each stream generates")
        self.streams = spin_box(1, 4096, "Concurrent streams (users served at once)")
        self.split = _combo(SPLITS, "Several GPUs: layers in sequence, or every layer split")
        self.offload_gib = QDoubleSpinBox()
        self.offload_gib.setRange(0, 100_000)
        self.offload_gib.setDecimals(1)
        self.offload_gib.setSuffix(" GiB")
        self.offload_gib.setKeyboardTracking(False)
        self.offload_gib.setToolTip(plain.tip("Weights kept in host RAM (computed by the CPU)"))
        self.flash_attention = QCheckBox("Flash attention")
        self.flash_attention.setToolTip(
            plain.tip(
                "llama.cpp's fused attention (-fa; on by default since August 2025). Off: the "
                "prompt's score matrix goes through memory and generation re-reads the KV "
                "cache, slower at long context. The other engines always fuse attention."
            )
        )
        self._layout()
        self._connect()
        view_model.session_changed.connect(self._on_session_changed)
        self._on_view_model_workload_changed(self._workload())

    def _layout(self) -> None:
        model = compact_form()
        model.addRow("Model", self.preset)
        model.addRow("", self.import_button)
        sizes = QHBoxLayout()
        for widget in (self.custom_layers, self.custom_hidden, self.custom_heads):
            sizes.addWidget(widget)
        model.addRow("Decoder size", sizes)
        vocab = QHBoxLayout()
        vocab.addWidget(self.custom_vocab)
        vocab.addWidget(self.custom_apply)
        model.addRow("Vocabulary", vocab)
        # the task sits with the model, and the serving fields right below it: on a
        # 1280x720 screen they show without scrolling past the training fields
        pair = QHBoxLayout()
        pair.addWidget(self.task)
        pair.addWidget(self.precision)
        model.addRow("Task", pair)
        run = compact_form()
        run.addRow("Stack", self.stack)
        pair = QHBoxLayout()
        pair.addWidget(self.batch)
        pair.addWidget(self.seq_len)
        run.addRow("Batch / seq", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.optimizer)
        pair.addWidget(self.checkpointing)
        run.addRow("Optimizer / ckpt", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.lora_rank)
        pair.addWidget(self.lora_targets)
        run.addRow("LoRA", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.master_weights)
        pair.addWidget(self.offload_mode)
        run.addRow("Master / offload", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.parallelism)
        pair.addWidget(self.tp_degree)
        run.addRow("Parallel / TP", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.pp_degree)
        pair.addWidget(self.pp_virtual_stages)
        run.addRow("Pipeline", pair)
        run.addRow("Accumulate", self.grad_accum)
        pair = QHBoxLayout()
        pair.addWidget(self.optimizer_in_backward)
        pair.addWidget(self.chunked_loss)
        run.addRow("", pair)
        run.addRow("", self.offload)  # its own line: the column stays narrow at 1280 px
        pair = QHBoxLayout()
        pair.addWidget(self.dataset)
        pair.addWidget(self.bytes_per_sample)
        run.addRow("Dataset", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.target_kind)
        pair.addWidget(self.target_value, 1)
        run.addRow("Target", pair)
        serve = compact_form()
        pair = QHBoxLayout()
        pair.addWidget(self.engine)
        pair.addWidget(self.weights)
        serve.addRow("Engine / weights", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.kv_cache)
        pair.addWidget(self.split)
        serve.addRow("KV cache / split", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.prompt_len)
        pair.addWidget(self.gen_len)
        serve.addRow("Prompt / output", pair)
        pair = QHBoxLayout()
        pair.addWidget(self.streams)
        pair.addWidget(self.offload_gib)
        serve.addRow("Streams / offload", pair)
        serve.addRow("", self.flash_attention)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.serving_box = QGroupBox("Serving the LLM")
        self.serving_box.setObjectName("servingBox")
        for title, form in (("Model", model), ("", serve), ("How it runs", run)):
            box = QGroupBox(title) if title else self.serving_box
            box.setLayout(form)
            layout.addWidget(box)

    def _connect(self) -> None:
        self.preset.activated.connect(self._on_preset_activated)
        self.import_button.clicked.connect(self._on_import_button_clicked)
        self.custom_apply.clicked.connect(self._on_custom_apply_clicked)
        combos = {
            self.task: "task",
            self.precision: "precision",
            self.stack: "stack",
            self.optimizer: "optimizer",
            self.checkpointing: "checkpointing",
            self.master_weights: "master_weights",
            self.offload_mode: "offload",
            self.parallelism: "parallelism",
        }
        for combo, field in combos.items():
            combo.activated.connect(
                lambda _i, combo=combo, field=field: self._edit(field, combo.currentText())
            )
        self.batch.valueChanged.connect(lambda v: self._edit("batch_size", v))
        self.seq_len.valueChanged.connect(lambda v: self._edit("seq_len", v or None))
        self.tp_degree.valueChanged.connect(lambda v: self._edit("tp_degree", v))
        self.pp_degree.valueChanged.connect(self._on_pp_changed)
        self.pp_virtual_stages.valueChanged.connect(lambda v: self._edit("pp_virtual_stages", v))
        self.grad_accum.valueChanged.connect(lambda v: self._edit("grad_accum_steps", v))
        self.offload.toggled.connect(lambda on: self._edit("cpu_offload", on))
        self.optimizer_in_backward.toggled.connect(
            lambda on: self._edit("optimizer_in_backward", on)
        )
        self.chunked_loss.toggled.connect(lambda on: self._edit("chunked_loss", on))
        self.lora_rank.valueChanged.connect(lambda v: self._edit_lora(rank=v))
        self.lora_targets.activated.connect(
            lambda _i: self._edit_lora(targets=_targets_of(self.lora_targets.currentText()))
        )
        self.dataset.valueChanged.connect(lambda v: self._edit("dataset_samples", v or None))
        self.bytes_per_sample.valueChanged.connect(
            lambda v: self._edit("bytes_per_sample", v or None)
        )
        self.target_kind.activated.connect(self._on_target_changed)
        self.target_value.valueChanged.connect(self._on_target_changed)
        for combo, field in (
            (self.engine, "engine"),
            (self.weights, "weights"),
            (self.kv_cache, "kv_cache"),
            (self.split, "split"),
        ):
            combo.activated.connect(
                lambda _i, combo=combo, field=field: self._edit_serving(field, combo.currentText())
            )
        for spin, field in (
            (self.prompt_len, "prompt_len"),
            (self.gen_len, "gen_len"),
            (self.streams, "streams"),
        ):
            spin.valueChanged.connect(lambda v, field=field: self._edit_serving(field, v))
        self.offload_gib.valueChanged.connect(lambda v: self._edit_serving("offload_gib", v))
        self.flash_attention.toggled.connect(lambda on: self._edit_serving("flash_attention", on))

    # -- model -> widgets -------------------------------------------------------------

    def _workload(self) -> Workload:
        return self._vm.workload or default_workload()

    def _on_session_changed(self, session: Session) -> None:
        if session.workload is not self._shown:
            self._on_view_model_workload_changed(self._workload())

    def _on_view_model_workload_changed(self, w: Workload) -> None:
        self._shown = self._vm.workload
        arch = w.architecture
        target_kind = "none"
        target_value = 0.0
        if w.target is not None:
            target_kind = "epochs" if w.target.epochs is not None else "tokens"
            target_value = w.target.epochs or w.target.tokens or 0.0
        # A non-transformer preset has no decoder sizes: the size fields then say "n/a" and
        # are off until the user picks "Custom model" (which starts from Llama-2 7B).
        sizes = arch if arch.is_transformer else None
        widgets: list[tuple[Any, Any]] = [
            (self.task, w.task),
            (self.precision, w.precision),
            (self.stack, w.stack),
            (self.optimizer, w.optimizer),
            (self.checkpointing, w.checkpointing),
            (self.master_weights, w.master_weights),
            (self.offload_mode, w.offload),
            (self.optimizer_in_backward, w.optimizer_in_backward),
            (self.chunked_loss, w.chunked_loss),
            (self.lora_rank, w.lora_settings.rank),
            (self.lora_targets, _targets_choice(w.lora_settings.targets)),
            (self.parallelism, w.parallelism),
            (self.target_kind, target_kind),
            (self.batch, w.batch_size),
            (self.seq_len, w.seq_len or 0),
            (self.tp_degree, w.tp_degree),
            (self.pp_degree, w.pp_degree),
            (self.pp_virtual_stages, w.pp_virtual_stages),
            (self.grad_accum, w.grad_accum_steps),
            (self.offload, w.cpu_offload),
            (self.dataset, w.dataset_samples or 0),
            (self.bytes_per_sample, w.bytes_per_sample or 0.0),
            (self.target_value, target_value),
            (self.custom_layers, (sizes and sizes.layers) or 1),
            (self.custom_hidden, (sizes and sizes.hidden_size) or 64),
            (self.custom_heads, (sizes and sizes.heads) or 1),
            (self.custom_vocab, (sizes and sizes.vocab_size) or 256),
            (self.preset, None),
        ]
        label = _targets_choice(w.lora_settings.targets)
        if self.lora_targets.findText(label) < 0:
            self.lora_targets.addItem(label)
        for widget, value in widgets:
            blocked = widget.blockSignals(True)
            if widget is self.preset:
                index = self.preset.findData(w.preset_id or CUSTOM)
                self.preset.setCurrentIndex(index)
                if w.preset_id is None:
                    self.preset.setItemText(index, f"Custom: {w.name}")
            elif isinstance(widget, QComboBox):
                widget.setCurrentText(value)
            elif isinstance(widget, QCheckBox):
                widget.setChecked(value)
            else:
                widget.setValue(value)
            widget.blockSignals(blocked)
        self._show_sizes(w.name if sizes is None else None)
        self.seq_len.setEnabled(arch.input_kind != "image")
        self.target_value.setEnabled(target_kind != "none")
        self._show_serving(w)

    def _show_sizes(self, not_a_decoder: str | None) -> None:
        """Decoder sizes are on for a transformer; for another model (``not_a_decoder`` is
        its name) they read "n/a" and say how to start a custom decoder."""
        boxes = (self.custom_layers, self.custom_hidden, self.custom_heads, self.custom_vocab)
        why = (
            f"{not_a_decoder} is not a transformer decoder: choose Custom model to start a "
            "decoder from Llama-2 7B's sizes"
        )
        for box in boxes:
            tip = self._size_tips.setdefault(box, box.toolTip())
            box.setSpecialValueText("n/a" if not_a_decoder else "")
            box.setEnabled(not_a_decoder is None)
            box.setToolTip(plain.tip(why) if not_a_decoder else tip)
        self.custom_apply.setEnabled(not_a_decoder is None)
        self._sizes_na = not_a_decoder is not None

    def _show_serving(self, w: Workload) -> None:
        """The serving fields for an LLM served for inference; training fields off then
        (the stack too: serving has its own engine)."""
        serving = w.is_serving
        self.serving_box.setVisible(serving)
        training = w.task != "inference"
        for widget in (
            self.optimizer,
            self.checkpointing,
            self.target_kind,
            self.dataset,
            self.bytes_per_sample,
            self.parallelism,
            self.offload,
            self.master_weights,
            self.optimizer_in_backward,
            self.offload_mode,
            self.grad_accum,
        ):
            widget.setEnabled(training)
        arch = w.architecture
        # offloaded activations are layer checkpoints: the backward recomputes every layer
        # whatever checkpointing says (docs/memory-model.md), so the choice does not apply
        offloaded = training and w.offloads_activations and arch.is_transformer
        self.checkpointing.setEnabled(training and not offloaded)
        self.checkpointing.setToolTip(
            plain.tip(
                "Offloaded activations are layer checkpoints: every layer is recomputed in "
                "the backward, as with full checkpointing"
                if offloaded
                else "Activation (gradient) checkpointing"
            )
        )
        # pipelines split transformer layers
        self.pp_degree.setEnabled(training and arch.is_transformer)
        self.pp_virtual_stages.setEnabled(training and w.pp_degree > 1)
        for widget in (self.lora_rank, self.lora_targets):
            widget.setEnabled(w.task in ("lora", "qlora"))
        self.chunked_loss.setEnabled(
            training and arch.is_transformer and arch.lm_head and bool(arch.vocab_size)
        )
        # the serving engine replaces the training stack for an LLM served
        self.stack.setEnabled(not serving)
        self.target_value.setEnabled(training and self.target_kind.currentText() != "none")
        # a served LLM's batch is its streams, its precision its weights format and its
        # tensor parallelism its split (seq_len follows the model's input kind above)
        for widget in (self.batch, self.precision, self.tp_degree):
            widget.setEnabled(not serving)
        self.seq_len.setEnabled(not serving and self.seq_len.isEnabled())
        if not serving:
            return
        s = w.serving_settings
        values: list[tuple[Any, Any]] = [
            (self.engine, s.engine),
            (self.weights, s.weights),
            (self.kv_cache, s.kv_cache),
            (self.split, s.split),
            (self.prompt_len, s.prompt_len),
            (self.gen_len, s.gen_len),
            (self.streams, s.streams),
            (self.offload_gib, s.offload_gib),
            (self.flash_attention, s.flash_attention),
        ]
        for widget, value in values:
            blocked = widget.blockSignals(True)
            if isinstance(widget, QComboBox):
                widget.setCurrentText(value)
            elif isinstance(widget, QCheckBox):
                widget.setChecked(value)
            else:
                widget.setValue(value)
            widget.blockSignals(blocked)
        # only llama.cpp has a choice: the other engines always fuse attention
        self.flash_attention.setEnabled(s.engine == "llama.cpp")
        # formats the engine does not load are shown but cannot be picked
        model = self.weights.model()
        loads = ENGINE_WEIGHTS.get(s.engine, frozenset(WEIGHTS))
        if isinstance(model, QStandardItemModel):
            for row in range(model.rowCount()):
                item = model.item(row)
                if item is not None:
                    item.setEnabled(item.text() in loads)

    def _edit_serving(self, field: str, value: Any) -> None:
        w = self._workload()
        serving = w.serving_settings.model_dump() | {field: value}
        if field == "engine":
            # the weights follow to the nearest format the new engine loads, in one edit
            serving["weights"] = self._vm.weights_for_engine(str(value), serving["weights"])
        error = self._vm.edit_workload(
            edit_text(field, value), {"serving": serving}, f"serving.{field}"
        )
        if error is not None:
            self._on_view_model_workload_changed(self._workload())

    # -- widgets -> intents ---------------------------------------------------------------

    def _edit(self, field: str, value: Any) -> None:
        changes: dict[str, Any] = {field: value}
        current = self._workload()
        if field == "task" and current.lora is not None:
            # the adapters stay; the base precision follows the task (QLoRA 4-bit)
            changes["lora"] = lora_for_task(current.lora, str(value)).model_dump()
        error = self._vm.edit_workload(edit_text(field, value), changes, f"workload.{field}")
        if error is not None:
            self._on_view_model_workload_changed(self._workload())

    def _on_pp_changed(self, stages: int) -> None:
        """One stage has no virtual chunks: going back to 1 resets them in the same edit."""
        changes: dict[str, Any] = {"pp_degree": stages}
        if stages == 1:
            changes["pp_virtual_stages"] = 1
        error = self._vm.edit_workload(
            f"Set pipeline stages to {stages}", changes, "workload.pp_degree"
        )
        if error is not None:
            self._on_view_model_workload_changed(self._workload())

    def _edit_lora(self, **update: Any) -> None:
        lora = {**self._workload().lora_settings.model_dump(), **update}
        error = self._vm.edit_workload("Set LoRA adapters", {"lora": lora}, "workload.lora")
        if error is not None:
            self._on_view_model_workload_changed(self._workload())

    def _on_preset_activated(self, index: int) -> None:
        data = self.preset.itemData(index)
        if data == CUSTOM:
            self._on_custom_apply_clicked()
        elif data is not None:
            self._vm.set_preset(str(data))

    def _on_target_changed(self, *_args: object) -> None:
        kind = self.target_kind.currentText()
        value = self.target_value.value()
        if kind != "none" and value <= 0:
            value = 1.0 if kind == "epochs" else 1e9
        target = None if kind == "none" else {kind: value}
        self._edit("target", target)

    def _on_custom_apply_clicked(self) -> None:
        if self._sizes_na:  # from a convnet: start from a real decoder
            start = _starting_decoder()
            for box, value in (
                (self.custom_layers, start.layers),
                (self.custom_hidden, start.hidden_size),
                (self.custom_heads, start.heads),
                (self.custom_vocab, start.vocab_size),
            ):
                blocked = box.blockSignals(True)
                box.setValue(value or box.minimum())
                box.blockSignals(blocked)
        hidden, heads = self.custom_hidden.value(), self.custom_heads.value()
        config = {
            "model_type": "llama",
            "num_hidden_layers": self.custom_layers.value(),
            "hidden_size": hidden,
            "num_attention_heads": heads,
            "num_key_value_heads": heads,
            "intermediate_size": int(hidden * 8 / 3 // 256 + 1) * 256,
            "vocab_size": self.custom_vocab.value(),
            "max_position_embeddings": 4096,
        }
        try:
            arch = architecture_from_hf_config(config)
        except (RigForgeError, ValueError) as error:
            self._vm.edit_rejected.emit(f"custom model: {error}")
            return
        name = f"Custom decoder {arch.params_total / 1e9:.2f}B"
        if self._vm.set_architecture(name, arch) is not None:
            self._on_view_model_workload_changed(self._workload())

    def _on_import_button_clicked(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, "Import Hugging Face config.json", "", "JSON (*.json)"
        )
        if path:
            self.import_config(path)

    def import_config(self, path: str) -> str | None:
        try:
            arch = load_hf_config(path)
        except (RigForgeError, OSError, ValueError) as error:
            self._vm.edit_rejected.emit(f"{path}: {error}")
            return str(error)
        return self._vm.set_architecture(f"{arch.kind} from config.json", arch)
