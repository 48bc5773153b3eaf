"""The ceiling on ``spearman_min`` that two measured orders of the same GPUs leave a model."""

from __future__ import annotations

import pytest

from tools.fit.spearman_bound import CALIBRATION, best_common_order, length_pairs


def test_two_swapped_pairs_leave_at_most_0_8() -> None:
    # ranks 1 2 3 4 at one length, 2 1 4 3 at the other: the orders agree at
    # 1 - 6 * 4 / (4 * 15) = 0.6; any other ordering is at least one swap (sum d^2 = 2)
    # from each, so the best one scores 1 - 6 * 2 / 60 = 0.8 against both
    short = {"A": 10.0, "B": 20.0, "C": 30.0, "D": 40.0}
    long = {"A": 21.0, "B": 11.0, "C": 41.0, "D": 31.0}
    between, best = best_common_order(short, long)  # type: ignore[misc]
    assert between == pytest.approx(0.6)
    assert best == pytest.approx(0.8)


def test_orders_that_agree_leave_a_perfect_score() -> None:
    short = {"A": 1.0, "B": 2.0, "C": 3.0, "D": 4.0, "E": 5.0}
    long = {g: 2.0 * v for g, v in short.items()}
    assert best_common_order(short, long) == (pytest.approx(1.0), pytest.approx(1.0))


def test_fewer_than_four_shared_gpus_are_not_scored() -> None:
    assert best_common_order({"A": 1.0, "B": 2.0, "C": 3.0}, {"A": 1.0, "B": 2.0, "C": 3.0}) is None


def test_the_calibration_tables_pair_512_with_4096_tokens() -> None:
    pairs = length_pairs(CALIBRATION)
    labels = [label for label, _, _ in pairs]
    assert "pp Llama-3 8B f16 x4 (512 vs 4096)" in labels
    _label, short, long = next(p for p in pairs if p[0] == "pp Llama-3 8B f16 x4 (512 vs 4096)")
    # XiongjieDai's LLaMA 3 table, RTX 4090 x4, F16: pp512 8750.6, pp4096 15143.8 tokens/s
    assert short["RTX 4090"] == pytest.approx(8750.6, rel=1e-3)
    assert long["RTX 4090"] == pytest.approx(15143.8, rel=1e-3)
