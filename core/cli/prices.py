"""``rigforge prices``: update prices from a feed, show them, set or remove overrides.

The network is touched only by ``prices update``. The cache and overrides live in
the user's directories (``$XDG_CACHE_HOME/rigforge``, ``$XDG_CONFIG_HOME/rigforge``)
unless ``--cache-dir`` / ``--overrides`` say otherwise.
"""

from __future__ import annotations

import argparse
import json
from datetime import date
from pathlib import Path

from pydantic import ValidationError

from core.cli.types import past_date, price, seconds
from core.errors import RigForgeError, validation_message
from core.prices.models import FeedEntry
from core.prices.store import user_cache_dir, user_overrides_path


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, help="price cache directory")
    parser.add_argument("--overrides", type=Path, help="price overrides file")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    update = sub.add_parser("update", help="fetch the price feed at --url")
    update.add_argument("--url", required=True)
    update.add_argument("--timeout", type=seconds, default=15.0, help="seconds")
    show = sub.add_parser(
        "show", help="list every part's price with its date, age and origin, and how fresh they are"
    )
    show.add_argument(
        "--json",
        action="store_true",
        help='{"parts": [...], "freshness": {...}}: each price, and the counts of parts priced '
        "within the last year",
    )
    show.add_argument("--category")
    set_ = sub.add_parser("set", help="override one part's price")
    set_.add_argument("part_id")
    set_.add_argument("price", type=price)
    set_.add_argument("--currency", default="USD")
    set_.add_argument("--source", default="manual override")
    set_.add_argument("--as-of", type=past_date, default=None, help="YYYY-MM-DD (default: today)")
    unset = sub.add_parser("unset", help="remove one part's override")
    unset.add_argument("part_id")
    for p in (update, show, set_, unset):
        add_common(p)


def run(args: argparse.Namespace) -> int:
    from core.catalog import load_catalog
    from core.files.fetch import FetchLimits
    from core.prices import load_currency_table, update_prices
    from core.prices.currency import to_usd
    from core.prices.feed import MAX_FEED_BYTES
    from core.prices.overrides import remove_override, set_override
    from core.text.cost import update_text

    catalog, currencies = load_catalog(), load_currency_table()
    cache_dir = args.cache_dir or user_cache_dir()
    overrides = args.overrides or user_overrides_path()
    if args.action == "update":
        limits = FetchLimits(timeout_s=args.timeout, max_bytes=MAX_FEED_BYTES, max_redirects=3)
        result = update_prices(args.url, cache_dir, catalog, currencies, limits=limits)
        print("\n".join(update_text(result)))
        return 1 if result.status == "failed" else 0
    if args.action == "set":
        as_of = args.as_of or date.today()
        try:
            entry = FeedEntry(
                price=args.price,
                currency=args.currency,
                as_of=as_of,
                kind="street",
                source=args.source,
            )
        except ValidationError as error:
            raise RigForgeError(f"price not set: {validation_message(error)}") from None
        to_usd(entry.price, entry.currency, currencies)  # names an unknown currency
        set_override(overrides, catalog, args.part_id, entry, currencies)
        print(f"{args.part_id}: override set to {args.price:,.2f} {args.currency}")
        return 0
    if args.action == "unset":
        removed = remove_override(overrides, args.part_id)
        print(f"{args.part_id}: " + ("override removed" if removed else "had no override"))
        return 0
    return _show(args, args.cache_dir, args.overrides)


def _show(args: argparse.Namespace, cache_dir: Path | None, overrides: Path | None) -> int:
    from core.cli.common import priced_catalog
    from core.prices.freshness import freshness
    from core.text.parts import fmt_price

    priced = priced_catalog(cache_dir, overrides)  # says on stderr what it set aside
    today = date.today()
    rows = []
    parts = priced.parts(args.category)
    for part in parts:
        origin = priced.price_origins.get(part.id, "catalog")
        used = part.used_price
        rows.append(
            {
                "id": part.id,
                "usd": part.price.usd,
                "as_of": part.price.as_of.isoformat() if part.price.as_of else None,
                "kind": part.price.kind,
                "origin": origin,
                "source": part.price.source,
                "age_days": part.price.age_days(today),
                "stale": part.price.stale(today),
                "used_usd": used.usd if used else None,
                "used_as_of": used.as_of.isoformat() if used and used.as_of else None,
            }
        )
        if not args.json:
            shown = fmt_price(part.price, today)
            print(f"{part.id:50} {shown:50} {origin:9} {part.price.source}")
    counts = freshness(parts, today)
    if args.json:
        print(json.dumps({"parts": rows, "freshness": counts}, indent=2))
    else:
        print(
            f"priced since {counts['since']}: {counts['parts_priced_since']} of "
            f"{counts['parts']} parts; {counts['gpus_new_price_since']} of {counts['gpus']} "
            f"GPUs new, {counts['gpus_used_price_this_year']} used this year; "
            f"{counts['stale_prices']} prices over a year old"
        )
    return 0
