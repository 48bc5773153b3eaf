"""Price lines and the parts total: dated prices with their origin; an unknown price leaves
the total unknown instead of counting as zero."""

from datetime import date

from core.calc.cost.parts import parts_cost, price_lines
from core.catalog import load_catalog
from core.models.common import Price
from core.prices import apply_prices
from core.prices.models import PartPrice
from tests.core.am5 import two_4090_am5

CATALOG = load_catalog()


def _feed(part_id: str, usd: float) -> PartPrice:
    return PartPrice(part_id=part_id, usd=usd, as_of=date(2025, 6, 1), source="t", origin="feed")


def test_an_unpriced_part_leaves_the_total_unknown() -> None:
    build = two_4090_am5(CATALOG)
    unpriced = build.gpu.model_copy(
        update={"price": Price(usd=None, kind="unknown", source="none found")}
    )
    lines = price_lines(build.model_copy(update={"gpu": unpriced}), CATALOG)
    cost = parts_cost(lines)
    assert cost.total_usd is None  # never "the other parts' sum"
    assert build.gpu.id in cost.unpriced_part_ids
    assert cost.priced_usd == sum(line.line_usd or 0.0 for line in lines)


def test_feed_prices_apply_to_the_build_with_their_origin() -> None:
    build = two_4090_am5(CATALOG)
    priced = apply_prices(CATALOG, feed=[_feed("rtx-4090", 1000.0)])
    lines = {line.part_id: line for line in price_lines(build, priced)}
    assert lines["rtx-4090"].origin == "feed"
    assert lines["rtx-4090"].line_usd == 2 * 1000.0  # two GPUs at the feed's price
    assert lines["ryzen-9-7950x"].origin == "catalog"
    bare = {line.part_id: line for line in price_lines(build, CATALOG)}
    # the bundled catalog's own newest price for the card
    assert bare["rtx-4090"].line_usd == 2 * (CATALOG.gpu("rtx-4090").price.usd or 0)
    assert bare["rtx-4090"].origin == "catalog"


def test_a_file_s_own_price_is_labelled_as_the_file_s_not_the_catalog_s() -> None:
    """A colleague's file carries its parts' prices: shown as the file's, never as "bundled
    catalog: <their source>"."""
    from core.text.cost import price_line_text

    build = two_4090_am5(CATALOG)
    theirs = Price(usd=1450.0, as_of=date(2026, 3, 1), kind="street", source="Their shop")
    sent = build.model_copy(update={"gpu": build.gpu.model_copy(update={"price": theirs})})
    lines = {line.part_id: line for line in price_lines(sent, CATALOG)}
    assert lines["rtx-4090"].origin == "file"
    assert lines["rtx-4090"].line_usd == 2 * 1450.0
    assert price_line_text(lines["rtx-4090"]) == (
        "2 × GeForce RTX 4090: $2,900 (street, 2026-03-01, the build file: Their shop)"
    )
    assert lines["ryzen-9-7950x"].origin == "catalog"  # same price as the bundled entry
