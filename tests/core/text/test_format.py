"""Figures in text read as they compare: a fit never reads as a full card."""

from core.text.format import fmt_number, use_of


def test_use_of_keeps_one_decimal_when_it_is_enough() -> None:
    assert use_of(7.04, 24.0) == "7.0 of 24.0 GiB"


def test_use_just_under_capacity_does_not_read_as_full() -> None:
    # 23.97 GiB on a 24 GiB card fits: one decimal would print "24.0 of 24.0"
    assert use_of(23.97, 24.0) == "23.97 of 24.00 GiB"
    # 23.996 rounds to 24.00 at two places; three tell the two apart
    assert use_of(23.996, 24.0) == "23.996 of 24.000 GiB"


def test_use_just_over_capacity_does_not_read_as_fitting() -> None:
    assert use_of(24.04, 24.0) == "24.04 of 24.00 GiB"


def test_equal_use_reads_equal() -> None:
    assert use_of(24.0, 24.0) == "24.0 of 24.0 GiB"


def test_numbers_drop_trailing_zeros() -> None:
    assert fmt_number(1228.0) == "1,228"
    assert fmt_number(2.5) == "2.5"
    assert fmt_number(0.125) == "0.12"  # two decimals, banker's rounding of 0.125
