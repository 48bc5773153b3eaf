"""Benchmark of the whole-catalog build search (``core.calc.suggest.search``).

Prints configurations considered and evaluated, evaluated per second, wall time and the
size of the front, for the workloads and budgets the product promises a front for on the
bundled catalog, and once with a stand-in price for every unpriced
part so that the whole search space is evaluated. The stand-in prices exist only
inside this script to measure speed; they are not data and never ranked for users.

Run: .venv/bin/python benchmarks/bench_suggest.py [workload] [budget]
"""

from __future__ import annotations

import sys
import time
from datetime import date

from core.calc.suggest.search import suggest
from core.catalog import Catalog, load_catalog
from core.models.suggest import SuggestRequest
from core.prices import PartPrice, apply_prices
from core.workloads import find_preset, make_workload, recipe_settings

STAND_IN_USD = {"gpu": 5000.0, "cpu": 800.0, "motherboard": 500.0, "memory": 200.0}
STAND_IN_OTHER_USD = 150.0


def stand_in_catalog(catalog: Catalog) -> Catalog:
    prices = [
        PartPrice(
            part_id=part.id,
            usd=STAND_IN_USD.get(part.category, STAND_IN_OTHER_USD),
            as_of=date(2025, 1, 1),
            source="benchmark stand-in, not a price",
            origin="override",
        )
        for part in catalog.parts()
        if part.price.usd is None
    ]
    return apply_prices(catalog, overrides=prices)


def run(label: str, catalog: Catalog, workload_name: str, budget: float) -> None:
    preset = find_preset(workload_name)
    workload = make_workload(preset, **recipe_settings(preset))  # as `rigforge suggest`
    request = SuggestRequest(budget_usd=budget, max_gpus=8)
    suggest(workload, request, catalog)  # warm caches of imports and presets
    start = time.perf_counter()
    result = suggest(workload, request, catalog)
    wall = time.perf_counter() - start
    print(
        f"{label}: {workload.name}, budget ${budget:,.0f}: considered {result.considered:,}, "
        f"evaluated {result.evaluated:,} in {wall:.3f} s "
        f"({result.evaluated / wall:,.0f} configurations/s), "
        f"front {len(result.front)}"
    )


MATRIX = ("resnet50-v1.5", "bert-large-squad", "llama-3-8b")
BUDGETS = (3_000.0, 10_000.0, 30_000.0)


def main() -> None:
    catalog = load_catalog()
    if len(sys.argv) > 1:
        name = sys.argv[1]
        budget = float(sys.argv[2]) if len(sys.argv) > 2 else 20_000.0
        run("bundled catalog", catalog, name, budget)
        run("every part priced (stand-ins)", stand_in_catalog(catalog), name, budget)
        return
    for name in MATRIX:  # the workloads and budgets the product promises a front for
        for budget in BUDGETS:
            run("bundled catalog", catalog, name, budget)
    run("every part priced (stand-ins)", stand_in_catalog(catalog), "resnet50-v1.5", 30_000.0)


if __name__ == "__main__":
    main()
