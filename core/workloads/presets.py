"""Load the shipped workload presets and resolve names the way benchmark tables write them."""

from __future__ import annotations

import difflib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from core.errors import InvalidWorkload, LookupFailed, validation_message
from core.models.workload import Workload, WorkloadPreset
from core.workloads.hf_config import MULTIMODAL, architecture_from_hf_config

PRESET_FILE = "presets.json"
HF_CONFIG_DIR = "hf-configs"
"""Sourced Hugging Face config.json files, each wrapped with its id, names and the
maker's published parameter counts; one preset each, listed after presets.json's."""
HF_FLOPS_SOURCE = "computed from config.json (Kaplan et al. 2020 Eq. 2.2)"


def _key(name: str) -> str:
    """Normalize a name: lowercase, letters and digits only ("ResNet-50 v1.5" -> "resnet50v15")."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def load_presets() -> tuple[WorkloadPreset, ...]:
    """Every preset, validated once: ``presets.json``'s, then one per ``hf-configs`` file."""
    return _shipped_presets() + hf_config_presets()


@cache
def _shipped_presets() -> tuple[WorkloadPreset, ...]:
    """The presets in ``resources/workloads/presets.json``."""
    text = resources.files("resources.workloads").joinpath(PRESET_FILE).read_text("utf-8")
    raw = json.loads(text)
    presets = []
    for index, entry in enumerate(raw["presets"]):
        try:
            presets.append(WorkloadPreset.model_validate(entry))
        except ValidationError as error:
            where = entry.get("id", f"#{index}") if isinstance(entry, dict) else f"#{index}"
            raise InvalidWorkload(f"{PRESET_FILE}: preset {where}: {error}") from error
    return tuple(presets)


@cache
def hf_config_presets() -> tuple[WorkloadPreset, ...]:
    """One preset per ``resources/workloads/hf-configs/*.json``, in file-name order.

    The architecture is parsed from the file's ``config`` (``architecture_from_hf_config``)
    the first time something asks for these presets, not at import.
    """
    folder = resources.files("resources.workloads").joinpath(HF_CONFIG_DIR)
    if not folder.is_dir():
        return ()
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)
    return tuple(_hf_preset(f.name, f.read_text("utf-8")) for f in files)


def _hf_preset(file_name: str, text: str) -> WorkloadPreset:
    where = f"{HF_CONFIG_DIR}/{file_name}"
    raw = json.loads(text)
    config = raw.get("config") if isinstance(raw, dict) else None
    published = raw.get("published_params") if isinstance(raw, dict) else None
    if not isinstance(config, dict) or not isinstance(published, dict):
        raise InvalidWorkload(f"{where}: needs a 'config' and a 'published_params' object")
    try:
        arch = architecture_from_hf_config(config)
    except InvalidWorkload as error:
        raise InvalidWorkload(f"{where}: {error}") from None
    computed = "computed from config.json by the transformers module definitions"
    published_source, config_source = published.get("source"), raw.get("config_source")
    sources = {
        "params_total": f"{computed}; published total {published.get('total')}: "
        f"{published_source}; config.json: {config_source}",
        "forward_flops_per_sample": HF_FLOPS_SOURCE,
        "layers": f"config.json: {config_source}",
        "default_seq_len": "config.json max_position_embeddings",
        "input_bytes_per_sample": "int64 token ids (torch.long, 8 bytes each) x sequence length",
        "op_mix": "NOT COUNTED: architecture read from a Hugging Face config.json, no "
        "flop-counter run for this model; forward_flops_per_sample split by its formula "
        "(matrix products 2N per token, attention 4 x layers x seq^2 x width), no "
        "elementwise or activation count",
    }
    if arch.params_active is not None:
        sources["params_active"] = (
            f"{computed}; published active {published.get('active')}: {published_source}"
        )
    notes = str(raw.get("notes") or "").strip()
    if config.get("model_type") in MULTIMODAL:
        notes = (
            "Counted: the text decoder (text_config) only; the vision tower and projector "
            "are not in the parameters. " + notes
        ).strip()
    entry = {
        "id": raw.get("id"),
        "name": raw.get("name"),
        "aliases": raw.get("aliases") or (),
        "architecture": arch,
        "sources": sources,
        "notes": notes,
        "default_task": "inference",
    }
    try:
        return WorkloadPreset.model_validate(entry)
    except ValidationError as error:
        raise InvalidWorkload(f"{where}: {validation_message(error)}") from None


@cache
def _shipped_index() -> dict[str, WorkloadPreset]:
    return _name_index(_shipped_presets())


@cache
def _index() -> dict[str, WorkloadPreset]:
    return _name_index(load_presets())


def _name_index(presets: tuple[WorkloadPreset, ...]) -> dict[str, WorkloadPreset]:
    index: dict[str, WorkloadPreset] = {}
    for preset in presets:
        for name in (preset.id, preset.name, *preset.aliases):
            index.setdefault(_key(name), preset)
    return index


def find_preset(name: str) -> WorkloadPreset:
    """The preset whose id, name or alias matches ``name`` (case and punctuation ignored).

    presets.json is searched first, so a name found there never parses the hf-configs
    files. Raises ``LookupFailed`` with close matches (difflib) when nothing matches.
    """
    key = _key(name)
    preset = _shipped_index().get(key) or _index().get(key)
    if preset is not None:
        return preset
    names = [n for p in load_presets() for n in (p.name, *p.aliases)]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    if not close:
        keyed = {_key(n): n for n in names}
        close = [
            keyed[k] for k in difflib.get_close_matches(_key(name), list(keyed), n=3, cutoff=0.5)
        ]
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise LookupFailed(f"unknown workload {name!r}{hint}")


def recipe_settings(preset: WorkloadPreset, task: str | None = None) -> dict[str, Any]:
    """Settings of the common recipe for a preset's task, for a user's starting point:
    LoRA/QLoRA fine-tuning of a decoder on 2,048-token sequences with full activation
    checkpointing (the defaults of Hugging Face PEFT/TRL and torchtune LoRA recipes use
    sequences of this order and checkpointing on a single consumer GPU)."""
    task = task or preset.default_task
    arch = preset.architecture
    if task in ("lora", "qlora") and arch.kind == "decoder":
        seq = min(2048, arch.default_seq_len or 2048)
        return {"seq_len": seq, "checkpointing": "full"}
    return {}


def make_workload(preset: WorkloadPreset, **settings: Any) -> Workload:
    """A ``Workload`` from a preset; impossible settings raise ``InvalidWorkload`` (with reason)."""
    fields: dict[str, Any] = {
        "name": preset.name,
        "preset_id": preset.id,
        "architecture": preset.architecture,
        "task": preset.default_task,
        "batch_size": preset.default_batch_size,
    }
    fields.update({k: v for k, v in settings.items() if v is not None})
    try:
        return Workload.model_validate(fields)
    except ValidationError as error:
        raise InvalidWorkload(validation_message(error)) from None
