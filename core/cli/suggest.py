"""``rigforge suggest``: the Pareto-best builds of the catalog for a workload and budget."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import get_args

from core.cli.common import priced_catalog
from core.cli.options import add_workload_options, workload_from
from core.cli.types import number, whole
from core.models.settings import CircuitId
from core.models.suggest import MAX_BUDGET_USD, MAX_SUGGEST_GPUS, PlatformFamily, Reason


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workload", required=True, help="workload preset name or alias")
    parser.add_argument(
        "--budget", type=number(1, MAX_BUDGET_USD), required=True, help="budget in USD"
    )
    parser.add_argument("--max-gpus", type=whole(1, MAX_SUGGEST_GPUS), default=MAX_SUGGEST_GPUS)
    parser.add_argument("--circuit", choices=get_args(CircuitId))
    parser.add_argument(
        "--max-wall-w", type=number(0, 100_000, low_open=True), help="cap on wall power, W"
    )
    parser.add_argument("--platform", choices=get_args(PlatformFamily), default="any")
    parser.add_argument("--max-psus", type=whole(1, 4), default=2)
    parser.add_argument("--no-vram-fit", action="store_true", help="keep builds that do not fit")
    parser.add_argument(
        "--include-used",
        action="store_true",
        help="also GPUs bought used, at their dated used price (default: new parts only)",
    )
    parser.add_argument(
        "--new-only",
        action="store_true",
        help="new GPUs only (the default; wins over --include-used)",
    )
    parser.add_argument(
        "--no-checkpointing",
        action="store_true",
        help="never switch on activation checkpointing to make a training workload fit",
    )
    parser.add_argument(
        "--min-decode-tokens-s",
        type=number(0, 1e6, low_open=True),
        help="serving: generation speed every stream must reach, tokens/s",
    )
    parser.add_argument(
        "--max-ttft-s",
        type=number(0, 1e6, low_open=True),
        help="serving: longest time to first token allowed, seconds",
    )
    parser.add_argument("--cache-dir", type=Path, help="price cache directory")
    parser.add_argument("--overrides", type=Path, help="price overrides file")
    add_workload_options(parser)
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from core.calc.suggest.search import suggest
    from core.models.suggest import SuggestRequest
    from core.text.cost import reason_text, suggest_lines

    # the common recipe for the preset's task, as the window starts from (LoRA of a
    # decoder: 2,048-token sequences, full checkpointing); options given win
    skip = ("checkpointing",) if args.no_checkpointing else ()
    workload = workload_from(args, recipe_without=skip)
    request = SuggestRequest(
        budget_usd=args.budget,
        max_gpus=args.max_gpus,
        circuit=args.circuit,
        max_wall_w=args.max_wall_w,
        platform=args.platform,
        max_psus=args.max_psus,
        require_vram_fit=not args.no_vram_fit,
        allow_used=args.include_used and not args.new_only,
        allow_checkpointing=not args.no_checkpointing,
        smaller_kv_cache=args.kv_cache is None,
        min_decode_tokens_s=args.min_decode_tokens_s,
        max_ttft_s=args.max_ttft_s,
    )
    priced = priced_catalog(args.cache_dir, args.overrides)
    result = suggest(workload, request, priced)
    if args.json:
        data = result.model_dump(mode="json")
        for item in data["front"]:
            item["reasons_text"] = [reason_text(r) for r in map(_reason, item["reasons"])]
        print(json.dumps(data, indent=1))
    else:
        print(f"{workload.name}, budget ${args.budget:,.0f}")
        names = {p.id: f"{p.name} ({p.id})" for p in priced.parts()}
        print("\n".join(suggest_lines(result, names)))
    return 0


def _reason(data: dict[str, object]) -> Reason:
    return Reason.model_validate(data)
