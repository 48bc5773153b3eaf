"""A generated hostile corpus: every class of bad input a shared file, feed or config can be.

Each case is bytes (or a non-regular path made on demand) and what must happen:
``"opens"`` (a clean result) or ``"refused"`` (the project's own error, in words).
Built from the bundled example so valid cases stay valid as the format grows.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from core.files.document import CURRENT_VERSION

Expect = Literal["opens", "refused"]
MARKUP = '<b>RF-MARK</b><img src="rf-missing.png"><a href="https://example.invalid">x</a>'
"""Text that Qt would render as markup; it must only ever appear literally."""

VALID = json.loads(
    resources.files("resources.examples").joinpath("single-rtx-4090.json").read_text()
)


@dataclass(frozen=True)
class Case:
    name: str
    expect: Expect
    data: bytes | None = None
    make: Callable[[Path], Path] | None = None
    """For non-regular paths (FIFO, device links, folders): create it under a folder."""

    def path(self, folder: Path) -> Path:
        if self.make is not None:
            return self.make(folder)
        target = folder / f"{self.name}.json"
        assert self.data is not None
        target.write_bytes(self.data)
        return target


def _doc(change: Callable[[dict[str, Any]], None]) -> bytes:
    document = copy.deepcopy(VALID)
    change(document)
    return json.dumps(document).encode()


def _gpu(document: dict[str, Any]) -> dict[str, Any]:
    snapshot: dict[str, Any] = document["builds"][0]["gpu"]["snapshot"]
    return snapshot


def _board(document: dict[str, Any]) -> dict[str, Any]:
    snapshot: dict[str, Any] = document["builds"][0]["motherboard"]["snapshot"]
    return snapshot


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target = document
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _m2(slots: int, drives: int) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        board = _board(document)
        board["m2_slots"] = [
            {"id": f"M.2_{i + 1}", "gen": 4, "lanes": 4, "attached_to": "chipset", "lane_rules": []}
            for i in range(slots)
        ]
        document["builds"][0]["drives"] = [
            {**document["builds"][0]["drives"][0], "count": 1} for _ in range(drives)
        ]

    return change


def lane_chain(
    slots: int = 14,
    m2: int = 14,
    gpus: int = 16,
    drives: int = 6,
    builds: int = 1,
    *,
    own_slot: bool = False,
) -> Callable[[dict[str, Any]], None]:
    """A board with ``slots`` x16 slots where slot N drops to 0 lanes when slot N-1 is
    populated (the way real boards share lanes), ``m2`` M.2 slots, one-slot-wide GPUs:
    legal in every field, and the shape that made an exhaustive placement search walk
    every smaller GPU set × every M.2 set (29.75 million placements for 14/14/16/6).
    ``own_slot`` adds a rule naming the slot it is on (refused)."""

    def change(document: dict[str, Any]) -> None:
        build = document["builds"][0]
        board = _board(document)
        board["pcie_slots"] = [
            {
                "id": f"S{i}",
                "position": i,
                "gen": 5,
                "lanes": 16,
                "attached_to": "cpu",
                "lane_rules": [{"when_populated": f"S{i - 1}", "lanes": 0}] * (i > 1)
                + [{"when_populated": f"S{i}", "lanes": 0}] * own_slot,
            }
            for i in range(1, slots + 1)
        ]
        board["m2_slots"] = [
            {"id": f"M{i}", "gen": 5, "lanes": 4, "attached_to": "cpu", "lane_rules": []}
            for i in range(1, m2 + 1)
        ]
        _gpu(document)["slot_width"] = 1
        build["gpu_count"] = gpus
        build["drives"] = [{**build["drives"][0], "count": drives}]
        if builds > 1:
            document["builds"] = [{**build, "name": f"lane chain {i}"} for i in range(builds)]
            document["kind"] = "comparison"

    return change


def _gpu_field(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        _gpu(document)[field] = value

    return change


def _markup(document: dict[str, Any]) -> None:
    document["title"] = MARKUP
    document["notes"] = MARKUP
    build = document["builds"][0]
    build["name"] = MARKUP
    for key in ("gpu", "cpu", "motherboard", "memory", "psu", "case"):
        if build.get(key):
            build[key]["snapshot"]["name"] = f"{key} {MARKUP}"
            build[key]["snapshot"]["price"]["source"] = f"source {MARKUP}"


def _custom_over_catalog(document: dict[str, Any]) -> None:
    gpu = _gpu(document)
    gpu["custom"] = True
    gpu["memory_bandwidth_gb_s"] = 500.0


def _many_builds(count: int) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        first = document["builds"][0]
        document["builds"] = [{**first, "name": f"build {i}"} for i in range(count)]
        document["kind"] = "comparison"

    return change


def _path_like_id(with_snapshot: bool) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        gpu = document["builds"][0]["gpu"]
        gpu["id"] = "../../../etc/passwd"
        if with_snapshot:
            gpu["snapshot"]["id"] = "../../../etc/passwd"
        else:
            del gpu["snapshot"]

    return change


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.json"
    os.mkfifo(path)
    return path


def _link(target: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / f"link-to-{Path(target).name}.json"
        path.symlink_to(target)
        return path

    return make


def _folder(folder: Path) -> Path:
    path = folder / "folder.json"
    path.mkdir()
    return path


def _dumps_with_duplicate_key() -> bytes:
    text = json.dumps(VALID)
    current = f'"version": {CURRENT_VERSION},'
    return text.replace(current, f'{current} "version": 2,', 1).encode()


def document_cases() -> list[Case]:
    valid = json.dumps(VALID).encode()
    nan = valid.replace(b'"gpu_count": 1', b'"gpu_count": NaN', 1)
    assert nan != valid
    return [
        Case("valid", "opens", valid),
        Case("empty", "refused", b""),
        Case("whitespace", "refused", b"   \n\t  "),
        Case("garbage", "refused", bytes(range(256)) * 8),
        Case("truncated", "refused", valid[: len(valid) // 2]),
        Case("wrong-shape-list", "refused", b"[1, 2, 3]"),
        Case("wrong-shape-builds", "refused", _doc(_set(("builds",), "x"))),
        Case("wrong-shape-gpu", "refused", _doc(_set(("builds", 0, "gpu"), [1]))),
        Case("nan", "refused", nan),
        Case("infinity", "refused", _doc(_gpu_field("vram_gib", float("inf")))),
        Case("deep-200k", "refused", b"[" * 200_000 + b"]" * 200_000),
        Case("deep-object-200k", "refused", b'{"a":' * 200_000 + b"1" + b"}" * 200_000),
        Case("huge-60mb", "refused", b" " * (60 * 1024 * 1024) + valid),
        Case("utf16-bom", "opens", valid.decode().encode("utf-16")),
        Case("utf8-bom", "opens", b"\xef\xbb\xbf" + valid),
        Case("utf32-bom", "opens", valid.decode().encode("utf-32")),
        Case("future-version", "refused", _doc(_set(("version",), 99))),
        Case("markup-version", "refused", _doc(_set(("version",), MARKUP))),
        Case("unknown-id", "refused", _doc(_set(("builds", 0, "cpu"), {"id": "ryzen-99-9999x"}))),
        Case(
            "unknown-id-with-snapshot",
            "opens",
            _doc(_gpu_field("id", "unknown-gpu-9000")).replace(
                b'"id": "rtx-4090"', b'"id": "unknown-gpu-9000"'
            ),
        ),
        Case("path-like-id", "refused", _doc(_path_like_id(False))),
        Case("path-like-id-snapshot", "refused", _doc(_path_like_id(True))),
        Case("board-power-1e300", "refused", _doc(_gpu_field("board_power_w", 1e300))),
        Case("board-power-1e7", "refused", _doc(_gpu_field("board_power_w", 1e7))),
        Case("board-power-max-valid", "opens", _doc(_gpu_field("board_power_w", 5000))),
        Case("m2-40-slots-20-drives", "refused", _doc(_m2(40, 20))),
        Case("m2-16-slots-24-drives", "opens", _doc(_m2(16, 24))),
        Case("m2-16-slots-12-drives", "opens", _doc(_m2(16, 12))),
        Case("lane-chain-14-slots", "opens", _doc(lane_chain())),
        Case("lane-chain-8-slots", "opens", _doc(lane_chain(slots=8, m2=8))),
        Case("lane-rule-names-own-slot", "refused", _doc(lane_chain(own_slot=True))),
        Case("lane-chain-64-builds", "opens", _doc(lane_chain(builds=64))),
        Case("float-max", "refused", _doc(_gpu_field("fp32_tflops", 1.7e308))),
        Case("float-min", "refused", _doc(_gpu_field("memory_bandwidth_gb_s", 5e-324))),
        Case("float-min-tflops", "refused", _doc(_gpu_field("tensor_tflops", {"fp16": 5e-324}))),
        Case(
            "int-4301-digits",
            "refused",
            valid.replace(b'"gpu_count": 1', b'"gpu_count": 1' + b"0" * 4301, 1),
        ),
        Case("int-huge-in-range-field", "refused", _doc(_set(("builds", 0, "gpu_count"), 10**30))),
        Case("duplicate-keys", "refused", _dumps_with_duplicate_key()),
        Case("markup-everywhere", "opens", _doc(_markup)),
        Case("custom-snapshot-over-catalog", "opens", _doc(_custom_over_catalog)),
        Case("name-300-chars", "refused", _doc(_set(("builds", 0, "name"), "n" * 300))),
        Case("builds-65", "refused", _doc(_many_builds(65))),
        Case("builds-64", "opens", _doc(_many_builds(64))),
        Case("drives-25", "refused", _doc(_set(("builds", 0, "drives", 0, "count"), 25))),
        Case("control-characters", "opens", _doc(_set(("title",), "a\x00b\x1b[31mc\u202ed"))),
        Case("baseline-out-of-range", "refused", _doc(_set(("baseline",), 7))),
        Case("fifo", "refused", make=_fifo),
        Case("link-to-dev-zero", "refused", make=_link("/dev/zero")),
        Case("link-to-dev-urandom", "refused", make=_link("/dev/urandom")),
        Case("folder", "refused", make=_folder),
        Case("missing-file", "refused", make=lambda folder: folder / "nowhere.json"),
    ]


FEED_VALID = {
    "format": "rigforge-price-feed",
    "version": 1,
    "published": "2026-11-01",
    "prices": {
        "rtx-4090": {
            "price": 1999.0,
            "currency": "USD",
            "as_of": "2026-11-01",
            "kind": "street",
            "source": "Example retailer listing, 2026-11-01",
        }
    },
}


def _feed(change: Callable[[dict[str, Any]], None]) -> bytes:
    document = copy.deepcopy(FEED_VALID)
    change(document)
    return json.dumps(document).encode()


def _entry(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return _set(("prices", "rtx-4090", field), value)


FeedExpect = Literal["updated", "failed"]


@dataclass(frozen=True)
class FeedCase:
    name: str
    expect: FeedExpect
    data: bytes


def feed_cases() -> list[FeedCase]:
    valid = json.dumps(FEED_VALID).encode()
    return [
        FeedCase("valid", "updated", valid),
        FeedCase("empty", "failed", b""),
        FeedCase("garbage", "failed", bytes(range(256)) * 8),
        FeedCase("truncated", "failed", valid[:40]),
        FeedCase(
            "wrong-shape",
            "failed",
            b'{"format": "rigforge-price-feed", "version": 1, "prices": [1]}',
        ),
        FeedCase("deep-200k", "failed", b"[" * 200_000 + b"]" * 200_000),
        FeedCase("huge-3mb", "failed", b" " * (3 * 1024 * 1024) + valid),
        FeedCase("nan-price", "failed", valid.replace(b"1999.0", b"NaN")),
        FeedCase("infinite-price", "failed", valid.replace(b"1999.0", b"1e999")),
        FeedCase("int-4301-digits", "failed", valid.replace(b"1999.0", b"1" + b"0" * 4301)),
        FeedCase("price-below-a-cent", "failed", _feed(_entry("price", 0.001))),
        FeedCase("price-zero", "failed", _feed(_entry("price", 0))),
        FeedCase("future-as-of", "failed", _feed(_entry("as_of", "2999-01-01"))),
        FeedCase("future-published", "failed", _feed(_set(("published",), "2999-01-01"))),
        FeedCase("bad-date", "failed", _feed(_entry("as_of", "2025-13-01"))),
        FeedCase("unknown-currency", "failed", _feed(_entry("currency", "XXX"))),
        FeedCase("unknown-part", "failed", _feed(_set(("prices",), {"nope": {}}))),
        FeedCase(
            "duplicate-keys",
            "failed",
            valid.replace(b'"version": 1,', b'"version": 1, "version": 1,', 1),
        ),
        FeedCase("markup-source", "updated", _feed(_entry("source", MARKUP))),
        FeedCase("utf16-bom", "updated", valid.decode().encode("utf-16")),
        FeedCase("future-version", "failed", _feed(_set(("version",), 2))),
    ]


HF_VALID = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "max_position_embeddings": 8192,
    "tie_word_embeddings": False,
}


def hf_config_cases() -> list[Case]:
    valid = json.dumps(HF_VALID).encode()

    def config(**changes: Any) -> bytes:
        return json.dumps({**HF_VALID, **changes}).encode()

    return [
        Case("valid", "opens", valid),
        Case("empty", "refused", b""),
        Case("garbage", "refused", bytes(range(256)) * 8),
        Case("deep-200k", "refused", b"[" * 200_000 + b"]" * 200_000),
        Case("deep-object-200k", "refused", b'{"a":' * 200_000 + b"1" + b"}" * 200_000),
        Case("huge-60mb", "refused", b" " * (60 * 1024 * 1024) + valid),
        Case("wrong-shape", "refused", b"[1, 2]"),
        Case("layers-1e30", "refused", config(num_hidden_layers=10**30)),
        Case("hidden-float-max", "refused", config(hidden_size=1.7e308)),
        Case("heads-zero", "refused", config(num_attention_heads=0)),
        Case("int-4301-digits", "refused", valid.replace(b"4096", b"4" + b"0" * 4301, 1)),
        Case(
            "duplicate-keys",
            "refused",
            valid.replace(b'"hidden_size"', b'"hidden_size": 1, "hidden_size"', 1),
        ),
        Case("utf16-bom", "opens", valid.decode().encode("utf-16")),
        Case("fifo", "refused", make=_fifo),
        Case("link-to-dev-zero", "refused", make=_link("/dev/zero")),
        Case("link-to-dev-urandom", "refused", make=_link("/dev/urandom")),
        Case("folder", "refused", make=_folder),
    ]
