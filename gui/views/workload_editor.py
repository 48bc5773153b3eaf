"""Workload editor: preset search, custom models, and how the workload runs.

Its fields come from ``core.fields.WORKLOAD_FIELDS``: one widget per field, made from the
field's kind, range, unit and help; each edit goes to ``SessionViewModel.set_field`` and
each field is on only where it applies (``core.fields.why_not`` is its tooltip when off).
The rows below only place the fields; a field not placed gets a row of its own.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.errors import RigForgeError
from core.fields import WORKLOAD_FIELDS
from core.models.session import Session
from core.models.workload import ENGINE_WEIGHTS, Workload
from core.workloads import load_hf_config, load_presets
from gui.viewmodels.session import SessionViewModel, default_workload
from gui.views import plain
from gui.views.editor_widgets import compact_form, field_widget, spin_box

CUSTOM = "__custom__"

MODEL_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (("Task", ("task", "precision")),)
SERVING_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Engine / weights", ("serving.engine", "serving.weights")),
    ("KV cache / split", ("serving.kv_cache", "serving.split")),
    ("Prompt / output", ("serving.prompt_len", "serving.gen_len")),
    ("Streams / offload", ("serving.streams", "serving.offload_gib")),
    ("Experts in RAM", ("serving.n_cpu_moe", "serving.flash_attention")),
    ("Speculative", ("serving.speculative", "serving.draft_model")),
    ("Draft / accept", ("serving.draft_tokens", "serving.acceptance")),
)
RUN_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Stack", ("stack",)),
    ("Batch / seq", ("batch_size", "seq_len")),
    ("Optimizer / ckpt", ("optimizer", "checkpointing")),
    ("LoRA", ("lora.rank", "lora.targets")),
    ("Master / offload", ("master_weights", "offload")),
    ("Parallel / TP", ("parallelism", "tp_degree")),
    ("Pipeline", ("pp_degree", "pp_virtual_stages")),
    ("Accumulate", ("grad_accum_steps",)),
    ("", ("optimizer_in_backward", "chunked_loss")),
    ("", ("cpu_offload",)),  # its own line: the column stays narrow at 1280 px
    ("Dataset", ("dataset_samples", "bytes_per_sample")),
    ("Target", ("target.kind", "target.value")),
)
"""Where the fields sit: the task with the model, the serving fields right below it (on
a 1280x720 screen they show without scrolling past the training fields)."""


def _starting_decoder_sizes() -> tuple[int, int, int, int]:
    arch = next(p.architecture for p in load_presets() if p.id == "llama-2-7b")
    return (arch.layers or 1, arch.hidden_size or 64, arch.heads or 1, arch.vocab_size or 256)


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
        self.fields = {f.key: f for f in WORKLOAD_FIELDS}
        self.inputs: dict[str, QWidget] = {f.key: field_widget(f) for f in WORKLOAD_FIELDS}
        self._layout()
        self._connect()
        view_model.session_changed.connect(self._on_session_changed)
        self._on_view_model_workload_changed(self._workload())

    def input(self, key: str) -> Any:
        """The widget of workload field ``key`` (``core.fields``)."""
        return self.inputs[key]

    def _rows(self, form: QFormLayout, rows: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        for label, keys in rows:
            if len(keys) == 1 and label:
                form.addRow(label, self.inputs[keys[0]])
                continue
            pair = QHBoxLayout()
            for key in keys:
                pair.addWidget(self.inputs[key], 1 if key == "target.value" else 0)
            form.addRow(label, pair)

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
        self._rows(model, MODEL_ROWS)
        serve = compact_form()
        self._rows(serve, SERVING_ROWS)
        run = compact_form()
        self._rows(run, RUN_ROWS)
        placed = {k for rows in (MODEL_ROWS, SERVING_ROWS, RUN_ROWS) for _l, ks in rows for k in ks}
        for f in WORKLOAD_FIELDS:
            if f.key not in placed:
                form = serve if f.block == "serving" else run
                form.addRow(f.label[0].upper() + f.label[1:], self.inputs[f.key])
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
        for key, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                widget.activated.connect(
                    lambda _i, key=key, combo=widget: self._edit(key, combo.currentText())
                )
            elif isinstance(widget, QCheckBox):
                widget.toggled.connect(lambda on, key=key: self._edit(key, on))
            elif isinstance(widget, QSpinBox | QDoubleSpinBox):
                widget.valueChanged.connect(lambda value, key=key: self._edit(key, value))

    # -- model -> widgets -------------------------------------------------------------

    def _workload(self) -> Workload:
        return self._vm.workload or default_workload()

    def _on_session_changed(self, session: Session) -> None:
        if session.workload is not self._shown:
            self._on_view_model_workload_changed(self._workload())

    def _on_view_model_workload_changed(self, w: Workload) -> None:
        self._shown = self._vm.workload
        arch = w.architecture
        # A non-transformer preset has no decoder sizes: the size fields then say "n/a" and
        # are off until the user picks "Custom model" (which starts from Llama-2 7B).
        sizes = arch if arch.is_transformer else None
        shown: list[tuple[Any, Any]] = [
            (self.custom_layers, (sizes and sizes.layers) or 1),
            (self.custom_hidden, (sizes and sizes.hidden_size) or 64),
            (self.custom_heads, (sizes and sizes.heads) or 1),
            (self.custom_vocab, (sizes and sizes.vocab_size) or 256),
        ]
        serving = w.is_serving
        self.serving_box.setVisible(serving)
        for key, widget in self.inputs.items():
            if self.fields[key].block == "serving" and not serving:
                continue  # hidden; a workload that does not serve has no serving values
            shown.append((widget, self._vm.field_value(key)))
            why = self._vm.field_off_reason(key)
            widget.setEnabled(why is None)
            widget.setToolTip(plain.tip(why or self.fields[key].help))
        blocked = self.preset.blockSignals(True)
        index = self.preset.findData(w.preset_id or CUSTOM)
        self.preset.setCurrentIndex(index)
        if w.preset_id is None:
            self.preset.setItemText(index, f"Custom: {w.name}")
        self.preset.blockSignals(blocked)
        for widget, value in shown:
            blocked = widget.blockSignals(True)
            if isinstance(widget, QComboBox):
                if widget.findText(str(value)) < 0:
                    widget.addItem(str(value))  # adapters not offered by name
                widget.setCurrentText(str(value))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            else:
                widget.setValue(value)
            widget.blockSignals(blocked)
        self._show_sizes(w.name if sizes is None else None)
        if serving:
            self._show_loadable_weights(w.serving_settings.engine)

    def _show_loadable_weights(self, engine: str) -> None:
        """Formats the engine does not load are shown but cannot be picked."""
        model = self.input("serving.weights").model()
        loads = ENGINE_WEIGHTS.get(engine, frozenset(self.fields["serving.weights"].choices))
        if isinstance(model, QStandardItemModel):
            for row in range(model.rowCount()):
                item = model.item(row)
                if item is not None:
                    item.setEnabled(item.text() in loads)

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

    # -- widgets -> intents ---------------------------------------------------------------

    def _edit(self, key: str, value: Any) -> None:
        if self._vm.set_field(key, value) is not None:
            self._on_view_model_workload_changed(self._workload())

    def _on_preset_activated(self, index: int) -> None:
        data = self.preset.itemData(index)
        if data == CUSTOM:
            self._on_custom_apply_clicked()
        elif data is not None:
            self._vm.set_preset(str(data))

    def _on_custom_apply_clicked(self) -> None:
        boxes = (self.custom_layers, self.custom_hidden, self.custom_heads, self.custom_vocab)
        if self._sizes_na:  # from a convnet: start from a real decoder
            for box, value in zip(boxes, _starting_decoder_sizes(), strict=True):
                blocked = box.blockSignals(True)
                box.setValue(value)
                box.blockSignals(blocked)
        sizes = [box.value() for box in boxes]
        if self._vm.set_custom_decoder(*sizes) is not None:
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
