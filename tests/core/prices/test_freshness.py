"""Dated price observations: the newest stands, a year-old price is stale and says so, and
the catalog's freshness is counted."""

from __future__ import annotations

from datetime import date

from core.calc.cost.parts import price_lines
from core.catalog import load_catalog
from core.catalog.builds import default_build
from core.models.common import Price
from core.models.parts import GPU
from core.prices.freshness import freshness
from core.text.cost import age_text, price_line_text

TODAY = date(2026, 12, 7)


def _gpu(**update: object) -> GPU:
    base = load_catalog().gpu("rtx-4090")
    data = base.model_dump() | {"observations": []} | update
    return GPU.model_validate(data).with_newest_prices()  # as the catalog loader does


def _price(usd: float, day: str, kind: str = "street") -> dict[str, object]:
    return {"usd": usd, "as_of": day, "kind": kind, "source": f"test listing {day}"}


def test_the_newest_observation_is_the_price() -> None:
    """A 2022 MSRP, a 2026-02 street listing and a 2025 one: the 2026 listing is the price;
    two used surveys: the newer one is the used price."""
    gpu = _gpu(
        price=_price(1599.0, "2022-10-12", "msrp"),
        used_price=None,
        observations=[
            _price(2899.0, "2026-02-01"),
            _price(2199.0, "2025-06-01"),
            _price(1799.0, "2026-03-10", "used"),
            _price(1650.0, "2025-11-01", "used"),
        ],
    )
    assert (gpu.price.usd, gpu.price.as_of) == (2899.0, date(2026, 2, 1))
    assert gpu.used_price is not None and gpu.used_price.usd == 1799.0


def test_a_price_over_a_year_old_is_stale() -> None:
    old = Price.model_validate(_price(1599.0, "2022-10-12", "msrp"))
    recent = Price.model_validate(_price(2899.0, "2025-12-08"))
    assert old.age_days(TODAY) == 1517  # 2022-10-12 to 2026-12-07
    assert old.stale(TODAY) and not recent.stale(TODAY)
    assert age_text(1517) == "4 years old" and age_text(45) == "45 days old"
    assert age_text(200) == "6 months old"  # 200 / 30.4 = 6.6, whole months passed: 6


def test_a_stale_line_says_its_age() -> None:
    build = default_build(load_catalog())
    gpu = _gpu(price=_price(1599.0, "2022-10-12", "msrp"), used_price=None, observations=[])
    lines = price_lines(build.model_copy(update={"gpu": gpu}), today=TODAY)
    line = next(x for x in lines if x.part_id == "rtx-4090")
    assert line.stale and line.age_days == 1517
    assert "stale: 4 years old" in price_line_text(line)
    fresh = next(x for x in lines if x.part_id != "rtx-4090" and not x.stale and x.as_of)
    assert "stale" not in price_line_text(fresh)


def test_freshness_counts() -> None:
    """Three GPUs: one priced new within the year, one with only a 2026 used price, one
    with a 2022 MSRP. Parts priced since 2025-12-07: 2 of 3; GPUs new since then: 1;
    used this year: 1; stale new prices: 2 (the used-only GPU's new price is old too)."""
    fresh = _gpu(id="a", price=_price(2899.0, "2026-02-01"), used_price=None)
    used_only = _gpu(
        id="b",
        price=_price(1499.0, "2020-09-24", "msrp"),
        used_price=_price(899.0, "2026-05-01", "used"),
    )
    old = _gpu(id="c", price=_price(1599.0, "2022-10-12", "msrp"), used_price=None)
    counts = freshness([fresh, used_only, old], TODAY)
    assert counts["since"] == "2025-12-07"
    assert (counts["parts"], counts["parts_priced_since"]) == (3, 2)
    assert (counts["gpus_new_price_since"], counts["gpus_used_price_this_year"]) == (1, 1)
    assert counts["stale_prices"] == 2
