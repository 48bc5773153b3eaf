"""The build optimizer: Pareto front, budget, unpriced parts, cancel and progress."""

from datetime import date

import numpy as np
import pytest

from core.calc.suggest.rank import pareto_indices
from core.calc.suggest.search import suggest
from core.catalog import Catalog, load_catalog
from core.models.suggest import SuggestRequest
from core.prices import PartPrice, apply_prices
from core.workloads import find_preset, make_workload

PRICES = {
    "corsair-vengeance-ddr5-5600-2x32gb": 180.0,
    "corsair-hx1500i-2025": 350.0,
    "asus-proart-x870e-creator-wifi": 480.0,
}


def _catalog() -> Catalog:
    prices = [
        PartPrice(part_id=k, usd=v, as_of=date(2025, 1, 1), source="test", origin="override")
        for k, v in PRICES.items()
    ]
    return apply_prices(load_catalog(), overrides=prices)


def test_pareto_indices_by_hand() -> None:
    cost = np.array([100.0, 200.0, 150.0, 300.0, 150.0])
    thr = np.array([10.0, 30.0, 5.0, 25.0, 20.0])
    # 150/5 is beaten by 100/10, 300/25 by 200/30; front: 100, 150/20, 200
    assert pareto_indices(cost, thr) == [0, 4, 1]


def test_front_is_pareto_within_budget_and_priced() -> None:
    workload = make_workload(find_preset("resnet50-v1.5"))
    result = suggest(workload, SuggestRequest(budget_usd=8000), _catalog())
    assert result.front and result.best is not None
    costs = [s.cost_usd for s in result.front]
    thr = [s.throughput for s in result.front]
    assert costs == sorted(costs) and thr == sorted(thr)
    assert all(c <= 8000 for c in costs)
    for s in result.front:
        assert s.verdict != "fail"
        total = sum(q * (p.price.usd or 0) for q, p in _bom(s.build))
        assert s.cost_usd == pytest.approx(total)
    best = min(result.front, key=lambda s: s.cost_usd / s.throughput)
    assert result.best == best
    assert any(r.code == "best_cost_per_throughput" for r in best.reasons)
    assert set(result.unpriced_part_ids) == {
        p.id for p in _catalog().parts() if p.price.usd is None
    } & set(result.unpriced_part_ids)  # only truly unpriced parts are named


def test_bundled_catalog_suggests_builds_out_of_the_box() -> None:
    workload = make_workload(find_preset("resnet50-v1.5"))
    result = suggest(workload, SuggestRequest(budget_usd=10_000), load_catalog())
    assert result.front
    for s in result.front:
        assert all(p.price.usd is not None for _q, p in s.build.bill_of_materials())


def test_smaller_budget_and_gpu_cap_constrain() -> None:
    workload = make_workload(find_preset("resnet50-v1.5"))
    result = suggest(workload, SuggestRequest(budget_usd=8000, max_gpus=1), _catalog())
    assert result.front
    assert all(s.build.gpu_count == 1 for s in result.front)
    tiny = suggest(workload, SuggestRequest(budget_usd=500), _catalog())
    assert tiny.front == () and tiny.skipped.over_budget > 0


def test_cancel_and_progress() -> None:
    workload = make_workload(find_preset("resnet50-v1.5"))
    seen: list[float] = []
    done = suggest(workload, SuggestRequest(budget_usd=8000), _catalog(), progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    assert not done.cancelled
    stopped = suggest(workload, SuggestRequest(budget_usd=8000), _catalog(), cancelled=lambda: True)
    assert stopped.cancelled and stopped.front == ()


def _bom(build):  # type: ignore[no-untyped-def]
    return build.bill_of_materials()
