"""Host side of a training step: data loading, storage reads and host-to-device copies.

All three run in a pipeline with the GPU (DataLoader workers, prefetch, pinned
memory with non-blocking copies), so only the part longer than the GPU step is
exposed.

Sources:
- PCIe per-lane per-direction bandwidth: ``core.models.pcie.GB_S_PER_LANE``.
- Achieved host->device copy = 88% of the per-direction spec (nvbandwidth, 8x
  H200 on PCIe 5.0 x16: 55.43 of 63 GB/s). Source: stas00/ml-engineering
  network/README.md.
- Per-core preprocessing rates are order-of-magnitude assumptions stated in
  docs/performance-model.md (JPEG decode + random-resized-crop ~ 150 images/s per
  core; pre-tokenized text is not CPU bound; audio feature extraction ~ 400
  clips/s per core); they matter only when a build has few cores per GPU.
"""

from __future__ import annotations

from typing import NamedTuple

from core.models.pcie import link_bandwidth_gb_s
from core.models.throughput import HostLink, HostSpec, WorkProfile

ASSUMED_HOST_MEMORY_GB_S = 89.6
"""Host DRAM peak assumed where a build's is not known: two channels of DDR5-5600
(JEDEC JESD79-5: 5,600 MT/s × 8 bytes per channel), the usual desktop platform."""

SAMPLES_PER_CORE_S: dict[str, float] = {"image": 150.0, "text": 20_000.0, "audio": 400.0}


class HostTimes(NamedTuple):
    data_loading_s: float
    storage_s: float
    host_to_device_s: float
    slowest_link: HostLink | None


def link_gb_s(link: HostLink) -> float:
    """Per-direction bandwidth of one GPU's PCIe link, capped by a shared chipset uplink."""
    bandwidth = link_bandwidth_gb_s(link.pcie_gen, link.lanes)
    if link.attached_to == "chipset" and link.chipset_uplink_gb_s is not None:
        bandwidth = min(bandwidth, link.chipset_uplink_gb_s / link.chipset_sharers)
    return bandwidth


def host_times(
    profile: WorkProfile,
    host: HostSpec | None,
    gpus: int,
    default_link: HostLink,
    eta_pcie: float,
) -> HostTimes:
    """Seconds per step to load, read and copy every GPU's batch (each GPU in parallel).

    With ``host`` ``None`` the host side is not modelled (benchmarks with synthetic
    data or a well-provisioned server) and only the copy over ``default_link`` counts.
    """
    batch = profile.batch_per_gpu
    links = host.links if host is not None and host.links else (default_link,) * gpus
    slowest = min(links[:gpus] or (default_link,), key=link_gb_s)
    bytes_per_gpu = batch * profile.input_bytes_per_sample
    h2d_s = bytes_per_gpu / (link_gb_s(slowest) * 1e9 * eta_pcie)
    load_s = storage_s = 0.0
    if host is not None and host.cpu_cores is not None:
        rate = host.cpu_cores * SAMPLES_PER_CORE_S[profile.input_kind]
        load_s = batch * gpus / rate
    if host is not None and host.storage_read_mb_s is not None:
        storage_s = bytes_per_gpu * gpus / (host.storage_read_mb_s * 1e6)
    return HostTimes(load_s, storage_s, h2d_s, slowest)
