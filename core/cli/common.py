"""What every command shares: the one price-aware catalog, the money formatter, the
analysis settings options, and reading a build file."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from pydantic import ValidationError

from core.cli.types import number
from core.errors import RigForgeError, validation_message
from core.models.cost import CloudRate
from core.models.settings import AnalysisSettings, CircuitId
from core.text.money import Money

if TYPE_CHECKING:
    from core.catalog import Catalog


@dataclass(frozen=True)
class Context:
    """The reference data one command run analyses with."""

    catalog: Catalog
    """The bundled catalog with the user's feed prices and overrides applied."""
    cloud_rates: tuple[CloudRate, ...]
    money: Money


def add_price_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, help="price-feed cache directory")
    parser.add_argument("--overrides", type=Path, help="price overrides file")
    parser.add_argument(
        "--currency",
        default="USD",
        help="show money in this currency (ECB reference rates of the bundled table's day)",
    )


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--region",
        choices=get_args(CircuitId),
        help="mains circuit the machine plugs into (default: the file's, else us-120v-15a)",
    )
    parser.add_argument(
        "--utilization", type=number(0, 1), help="share of the year at full load, 0-1 (default 0.5)"
    )
    parser.add_argument(
        "--electricity-price",
        type=number(0, 10),
        help="electricity price per kWh in USD (default: US residential average, EIA 2024)",
    )


def priced_catalog(cache_dir: Path | None, overrides: Path | None) -> Catalog:
    """The price-aware catalog; what the user should know about their overrides (a named
    file that does not exist, each entry ignored and why) goes to standard error, so
    ``--json`` output stays clean."""
    import sys

    from core.prices.models import Rejection
    from core.prices.store import load_priced_catalog
    from core.text.cost import rejection_lines

    rejected: list[Rejection] = []
    notes: list[str] = []
    catalog = load_priced_catalog(cache_dir, overrides, rejected, notes)
    if overrides is not None and not overrides.exists():
        print(
            f"rigforge: note: the price overrides file {str(overrides)!r} does not exist; "
            "none applied",
            file=sys.stderr,
        )
    for line in [*notes, *rejection_lines(rejected, "price override ignored: ")]:
        print(f"rigforge: note: {line}", file=sys.stderr)
    return catalog


def load_context(args: argparse.Namespace) -> Context:
    """The price-aware catalog, cloud rates and money formatter, loaded once per run."""
    from core.prices.cloud import load_cloud_rates
    from core.prices.currency import load_currency_table

    catalog = priced_catalog(getattr(args, "cache_dir", None), getattr(args, "overrides", None))
    currency = str(getattr(args, "currency", "USD") or "USD").upper()
    try:
        money = Money(currency, load_currency_table())
    except ValueError as error:
        raise RigForgeError(str(error)) from None
    return Context(catalog, load_cloud_rates().rates, money)


def settings_from(args: argparse.Namespace, base: AnalysisSettings) -> AnalysisSettings:
    """``base`` (the file's settings) with the options the user gave on the command line."""
    update = {
        key: value
        for key, value in (
            ("circuit", getattr(args, "region", None)),
            ("utilization", getattr(args, "utilization", None)),
            ("electricity_usd_per_kwh", getattr(args, "electricity_price", None)),
        )
        if value is not None
    }
    try:
        return AnalysisSettings.model_validate(base.model_dump() | update)
    except ValidationError as error:
        raise RigForgeError(f"invalid option: {validation_message(error)}") from None
