"""One verdict at a glance, "Won't work" instead of numbers for a build that cannot run,
and published measurements beside the estimate."""

from __future__ import annotations

from gui.views.main_window import MainWindow
from tests.gui.conftest import card


def test_default_build_works_with_no_advisory(window: MainWindow) -> None:
    banner = window.results.banner
    assert banner.severity == "pass"
    assert banner.label.text() == "Works"
    assert not banner.fix_button.isVisibleTo(window)
    assert not banner.plan_button.isVisibleTo(window)  # nothing to make work


def test_failing_build_says_wont_work_and_fixes_in_one_click(window: MainWindow) -> None:
    window.build_editor.gpu_count.setValue(4)  # four 4090s overload the default PSU
    banner = window.results.banner
    fails = [c for c in window.analysis_view_model.analysis.checks if c.severity == "fail"]
    assert banner.severity == "fail"
    word = "problem" if len(fails) == 1 else "problems"
    assert banner.label.text().startswith(f"Won't work — {len(fails)} {word}: ")
    for key in ("throughput", "time", "per_unit"):
        assert card(window, key) == "Won't work"
    assert "once fixed" in window.results.cards.cards["throughput"].detail.text()
    assert banner.fix_button.isVisibleTo(window)
    banner.fix_button.click()
    after = [c for c in window.analysis_view_model.analysis.checks if c.severity == "fail"]
    assert len(after) < len(fails)
    window.undo_action.trigger()
    assert window.results.banner.severity == "fail"


def test_published_measurement_beside_the_estimate(window: MainWindow) -> None:
    """The default build: two RTX 4090s; Lambda published ResNet-50 fp16 on 2 x RTX 4090 at
    2,468 images/s (batch 448 per GPU)."""
    editor = window.workload_editor
    index = editor.preset.findData("resnet50-v1.5")
    editor.preset.setCurrentIndex(index)
    editor.preset.activated.emit(index)
    precision = editor.input("precision").findText("fp16")
    editor.input("precision").setCurrentIndex(precision)
    editor.input("precision").activated.emit(precision)
    throughput = window.results.cards.cards["throughput"]
    assert "published: 2,468 images/s at batch 448 on 2 GPUs" in throughput.detail.text()
    assert "Lambda" in throughput.explanation and "model error" in throughput.explanation


def test_lora_preset_starts_from_the_common_recipe(window: MainWindow) -> None:
    """Llama-3 8B LoRA starts at 2,048 tokens with full checkpointing and fits a 24 GB
    RTX 4090: 16.1 GB of bf16 weights, 16 B x 2,048 x 128,256 = 4.2 GB of loss logits,
    32 checkpoints of 2,048 x 4,096 x 2 B = 0.5 GB, one layer being recomputed."""
    editor = window.workload_editor
    index = editor.preset.findData("llama-3-8b")
    editor.preset.setCurrentIndex(index)
    editor.preset.activated.emit(index)
    w = window.session_view_model.workload
    assert w is not None and w.task == "lora"
    assert (w.seq_len, w.checkpointing) == (2048, "full")
    assert card(window, "vram") == "Yes"


def test_banner_text_stays_dark_on_its_light_colour_in_the_dark_theme(
    window: MainWindow,
) -> None:
    """The banner keeps its light severity colours in either theme, so its text must be
    the banner's dark ink, not the dark palette's light text (unreadable before)."""
    from PySide6.QtGui import QColor, QPalette

    dialog = window.open_settings()
    dialog.theme.setCurrentText("dark")
    dialog.accept()
    window.build_editor.gpu_count.setValue(4)  # a failing build: the banner is repainted
    label = window.results.banner.label
    label.ensurePolished()
    ink = label.palette().color(QPalette.ColorRole.WindowText)
    assert ink == QColor("#8e1b1b")  # the fail banner's ink (lightness 69), not #e0e0e0
