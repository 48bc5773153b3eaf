"""Power bases in words: the PDF's power table and the wall-power card name where each
figure comes from, never the model's code ("assumed:1")."""

from core.text.power import basis_text


def test_drive_basis_names_the_count() -> None:
    assert basis_text("assumed:1") == "assumed, 1 drive"
    assert basis_text("drive_spec:3") == "drive specifications, 3 drives"


def test_codes_read_as_words() -> None:
    assert basis_text("board_power") == "board power, catalog"
    assert basis_text("assumed_cem5_bound").startswith("assumed: the PCIe CEM 5.0")
    assert basis_text("some_new_code") == "some new code"
