"""Benchmark of the whole-catalog build search (``core.calc.suggest.search``).

Prints configurations considered and evaluated, evaluated per second and wall
time, for the bundled catalog as shipped (most non-GPU parts are unpriced, so
most configurations are skipped) and with a stand-in price for every unpriced
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
from core.workloads import find_preset, make_workload

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
    workload = make_workload(find_preset(workload_name))
    request = SuggestRequest(budget_usd=budget, max_gpus=8, circuit="us-120v-20a")
    suggest(workload, request, catalog)  # warm caches of imports and presets
    start = time.perf_counter()
    result = suggest(workload, request, catalog)
    wall = time.perf_counter() - start
    print(
        f"{label}: {workload.name}, budget ${budget:,.0f}: considered {result.considered:,}, "
        f"evaluated {result.evaluated:,} in {wall:.3f} s "
        f"({result.evaluated / wall:,.0f} configurations/s), "
        f"front {len(result.front)}, skipped {result.skipped.model_dump()}"
    )


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "resnet50-v1.5"
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 20_000.0
    catalog = load_catalog()
    run("bundled catalog", catalog, name, budget)
    run("every part priced (stand-ins)", stand_in_catalog(catalog), name, budget)


if __name__ == "__main__":
    main()
