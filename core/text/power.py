"""Where each power figure comes from, in words (the models keep short basis codes)."""

from __future__ import annotations

BASIS_TEXT = {
    "board_power": "board power, catalog",
    "power_limit": "your power limit",
    "serving_draw": "its highest draw while serving the model (prompt processing)",
    "cpu_max_power": "maximum power, catalog",
    "cpu_base_power": "base power, catalog (no maximum sourced)",
    "drive_spec": "drive specifications",
    "assumed": "assumed",
    "measured_rtx_a6000_200us": "measured on an RTX A6000, 200 µs (Lenovo)",
    "measured_quadro_rtx_4000_200us": "measured on a Quadro RTX 4000, 200 µs (Lenovo)",
    "pcie_cem5_allowance": "PCIe CEM 5.0 allowance for 16-pin cards",
    "assumed_cem5_bound": "assumed: the PCIe CEM 5.0 allowance (no measurement)",
}
"""Basis codes of ``core.calc.platform.power`` and what they mean."""


def basis_text(basis: str) -> str:
    """ "assumed, 2 drives" for "assumed:2"; unknown codes as words."""
    code, _, count = basis.partition(":")
    words = BASIS_TEXT.get(code, code.replace("_", " "))
    if count.isdigit():
        n = int(count)
        words += f", {n} drive{'s' if n != 1 else ''}"
    return words
