"""Price lines: quantity, date, origin; unpriced parts listed, never guessed."""

from core.calc.cost.parts import parts_cost, price_lines
from core.catalog import load_catalog
from core.catalog.builds import default_build


def test_price_lines_origin_and_unpriced() -> None:
    catalog = load_catalog()
    build = default_build(catalog)
    lines = {line.part_id: line for line in price_lines(build, {"rtx-4090": "feed"})}
    assert lines["rtx-4090"].origin == "feed"
    assert lines["ryzen-9-7950x"].origin == "catalog"
    psu = lines["corsair-hx1500i-2025"]
    assert psu.unit_usd is None and psu.line_usd is None
    cost = parts_cost(build)
    assert not cost.complete
    assert cost.total_usd == sum(line.line_usd or 0 for line in lines.values())
