"""``rigforge schema``: print the JSON Schema of the current file format or of price feeds."""

from __future__ import annotations

import argparse
import json

from core.files.document import json_schema


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--price-feed", action="store_true", help="the schema of price-feed files instead"
    )


def run(args: argparse.Namespace) -> int:
    if args.price_feed:
        from core.prices.models import feed_json_schema

        print(json.dumps(feed_json_schema(), indent=2))
    else:
        print(json.dumps(json_schema(), indent=2))
    return 0
