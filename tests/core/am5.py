"""The two-RTX-4090 build on a Ryzen 9 7950X board that many tests were worked out on (the
bundled default build before it moved to a platform that passes every check)."""

from __future__ import annotations

from core.catalog import Catalog
from core.catalog.builds import build_from_ids
from core.models.build import Build

TWO_4090_AM5 = {
    "name": "Two RTX 4090 workstation",
    "gpu": "rtx-4090",
    "gpu_count": 2,
    "cpu": "ryzen-9-7950x",
    "motherboard": "asus-proart-x870e-creator-wifi",
    "memory": "corsair-vengeance-ddr5-5600-2x32gb",
    "memory_kits": 1,
    "drives": [{"drive": "samsung-990-pro-2tb", "count": 1}],
    "psu": "corsair-hx1500i-2025",
    "case": "fractal-design-define-7-xl",
}


def two_4090_am5(catalog: Catalog) -> Build:
    return build_from_ids(catalog, TWO_4090_AM5)
