"""Workload presets, Hugging Face config import and name resolution."""

from core.workloads.hf_config import architecture_from_hf_config, custom_decoder, load_hf_config
from core.workloads.presets import find_preset, load_presets, make_workload, recipe_settings

__all__ = [
    "architecture_from_hf_config",
    "custom_decoder",
    "find_preset",
    "load_hf_config",
    "load_presets",
    "make_workload",
    "recipe_settings",
]
