"""Write the bundled example files from part ids, with snapshots of today's catalog.

The examples in ``resources/examples/`` are regenerated from the specs below, so their
snapshots always carry the catalog's current, dated and sourced prices (a test checks
that every example opens with a complete total). Run after a catalog price change:

    .venv/bin/python -m tools.examples.make_examples
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from core.catalog import load_catalog
from core.catalog.builds import build_from_ids
from core.catalog.systems import find_system
from core.files.io import save_file
from core.models.session import Session, SystemPlan
from core.models.settings import AnalysisSettings
from core.models.workload import Serving
from core.workloads import find_preset, make_workload

SETTINGS = AnalysisSettings(circuit="us-120v-15a", electricity_usd_per_kwh=0.15, utilization=0.5)

SINGLE: dict[str, Any] = {
    "name": "Single RTX 4090 starter",
    "gpu": "rtx-4090",
    "cpu": "ryzen-9-7950x",
    "motherboard": "asus-proart-x870e-creator-wifi",
    "memory": "corsair-vengeance-ddr5-5600-2x32gb",
    "drives": [{"drive": "samsung-990-pro-2tb"}],
    "psu": "antec-hcg-pro-1000-atx31",
    "case": "fractal-design-north",
}

TWO_4090: dict[str, Any] = {
    "name": "2x RTX 4090 (320 W each)",
    "gpu": "rtx-4090",
    "gpu_count": 2,
    "gpu_power_limit_w": 320,
    "cpu": "threadripper-pro-9965wx",
    "motherboard": "asus-pro-ws-wrx90e-sage-se",
    "memory": "kingston-fury-renegade-pro-ddr5-6000-8x32gb-rdimm",
    "drives": [{"drive": "samsung-990-pro-2tb"}],
    "psu": "msi-meg-ai1600t-pcie5",
    "case": "phanteks-enthoo-pro-2-server-edition",
}
"""The bundled default build's parts: two open-air cards a slot apart on CPU lanes, a
1,600 W ATX 3.1 PSU for their spikes, limited to 320 W each for a 15 A circuit."""

COMPARISON: list[dict[str, Any]] = [
    TWO_4090,
    TWO_4090
    | {
        "name": "2x RTX 6000 Ada",
        "gpu": "rtx-6000-ada",
        "gpu_power_limit_w": None,
        "drives": [{"drive": "samsung-990-pro-4tb"}],
    },
    TWO_4090
    | {
        "name": "2x RTX 3090 (used, NVLink, 320 W each)",
        "gpu": "rtx-3090",
        "nvlink_bridges": 1,
        "used": ["rtx-3090"],
    },
]


LOCAL_LLM: list[dict[str, Any]] = [
    TWO_4090 | {"name": "2x RTX 3090 (used)", "gpu": "rtx-3090", "used": ["rtx-3090"]},
    SINGLE
    | {"name": "1x RTX 5090, layers in RAM", "gpu": "rtx-5090", "psu": "corsair-hx1200i-2025"},
]
"""Two used 24 GB cards against one 32 GB card that keeps what does not fit in host RAM."""
LOCAL_SYSTEMS = (
    ("dgx-spark-128gb", 1),
    ("framework-desktop-128gb", 1),
    ("mac-studio-m3-ultra-96gb", 1),
)


def main() -> None:
    catalog = load_catalog()
    folder = Path(str(resources.files("resources.examples")))
    single = Session(
        builds=(build_from_ids(catalog, SINGLE),),
        settings=SETTINGS,
        title="Single RTX 4090 starter",
        notes="One RTX 4090 on a Ryzen 9 7950X: a common first deep-learning workstation.",
    )
    save_file(folder / "single-rtx-4090.json", single)
    comparison = Session(
        builds=tuple(build_from_ids(catalog, spec) for spec in COMPARISON),
        settings=SETTINGS,
        title="Three ways to 48 GB+ of VRAM",
        notes=(
            "Consumer, workstation and used cards compared on one workstation platform; "
            "the first build is the baseline. The RTX 3090s are priced at a dated survey "
            "of used listings."
        ),
    )
    save_file(folder / "three-way-comparison.json", comparison)
    serving = Serving(
        engine="llama.cpp",
        weights="q4_k_m",
        prompt_len=4096,
        gen_len=512,
        streams=1,
        split="layer",
    )
    llm = Session(
        builds=(build_from_ids(catalog, COMPARISON[0]),),
        workload=make_workload(find_preset("llama-3.3-70b"), task="inference").model_copy(
            update={"serving": serving}
        ),
        settings=SETTINGS.model_copy(update={"api_usd_per_million_tokens": 0.6}),
        title="Llama 3.3 70B on two RTX 4090s",
        notes=(
            "A local 70B chat model: 4-bit (Q4_K_M) weights split by layers over two 24 GB "
            "cards with llama.cpp; a 4,096-token prompt and a 512-token answer."
        ),
    )
    save_file(folder / "llama-70b-two-4090s.json", llm)
    local = Session(
        builds=tuple(build_from_ids(catalog, spec) for spec in LOCAL_LLM),
        systems=tuple(
            SystemPlan(name=find_system(i).name, system=find_system(i), nodes=n)
            for i, n in LOCAL_SYSTEMS
        ),
        workload=make_workload(find_preset("llama-3.3-70b"), task="inference").model_copy(
            update={
                "serving": Serving(
                    weights="q4_k_m", prompt_len=3968, gen_len=128, offload_to_fit=True
                )
            }
        ),
        settings=SETTINGS,
        title="Llama 3.3 70B at home, 2026",
        notes=(
            "Llama 3.3 70B (Q4_K_M, llama.cpp, a 4,096-token context) on two used RTX "
            "3090s, one RTX 5090 keeping what does not fit in host RAM, and three prebuilt "
            "unified-memory systems: DGX Spark, a Strix Halo desktop and a Mac Studio."
        ),
    )
    save_file(folder / "local-llm-2026.json", local)
    print(f"wrote the examples in {folder}")


if __name__ == "__main__":
    main()
