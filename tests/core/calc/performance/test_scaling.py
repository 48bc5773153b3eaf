"""Multi-GPU links, ring all-reduce, host I/O and the scaling curve."""

from __future__ import annotations

import pytest

from core.calc.performance.constants import FITTED
from core.calc.performance.hostio import link_gb_s
from core.calc.performance.profile import profile_from_workload
from core.calc.performance.scaling import comm_link, estimate_throughput, time_to_target_s
from core.catalog import load_catalog
from core.models.parts import GPU
from core.models.throughput import HostLink, HostSpec, ThroughputResult, WorkProfile
from core.models.workload import Workload
from core.workloads import find_preset, make_workload
from tests.core.calc.performance.test_throughput import UNIT, profile

X16_GEN4 = HostLink(pcie_gen=4, lanes=16)


def gpu(name: str) -> GPU:
    return load_catalog().gpu(name)


def test_pcie_link_bandwidth_per_direction() -> None:
    assert link_gb_s(X16_GEN4) == pytest.approx(16 * 1.969)
    assert link_gb_s(HostLink(pcie_gen=3, lanes=8)) == pytest.approx(8 * 0.985)
    shared = HostLink(
        pcie_gen=4, lanes=4, attached_to="chipset", chipset_uplink_gb_s=7.9, chipset_sharers=2
    )
    assert link_gb_s(shared) == pytest.approx(3.95)


def test_link_choice_follows_card_and_bridges() -> None:
    rtx3090, h100, a100p = gpu("RTX 3090"), gpu("H100 SXM5 80GB"), gpu("A100 PCIe 40GB")
    assert comm_link(rtx3090, 2, "auto", X16_GEN4).kind == "pcie_host"  # GeForce: no P2P
    bridged = comm_link(rtx3090, 2, "nvlink", X16_GEN4)
    assert (bridged.kind, bridged.gb_s) == ("nvlink_bridge", 56.25)
    assert comm_link(rtx3090, 4, "nvlink", X16_GEN4).kind == "pcie_host"  # pairs cross PCIe
    assert comm_link(h100, 8, "auto", X16_GEN4) == ("nvswitch", 450.0, None)
    assert comm_link(a100p, 4, "pcie", X16_GEN4).kind == "pcie_p2p"
    assert comm_link(h100, 1, "auto", X16_GEN4).kind == "none"
    # Peer-to-peer turned off (NCCL_P2P_DISABLE=1): even NVSwitch boards stage through host.
    assert comm_link(h100, 8, "host", X16_GEN4) == ("pcie_host", 16 * 1.969, X16_GEN4)
    assert comm_link(a100p, 4, "host", X16_GEN4).kind == "pcie_host"


def test_ring_allreduce_exposed_time_hand_derived() -> None:
    # 1e8 fp32 grads = 4e8 B; ring over 4 GPUs moves 2*3/4*4e8 = 6e8 B per GPU over
    # PCIe 4.0 x16 = 31.504 GB/s (eta_link 1, no overlap, no latency).
    p = profile(matmul_flops=1e9, params_total=1e8, params_trainable=1e8, batch_per_gpu=8)
    r = estimate_throughput(p, gpu("A100 PCIe 40GB"), 4, UNIT, interconnect="pcie")
    assert r.breakdown.communication_exposed_s == pytest.approx(6e8 / 31.504e9)
    assert r.link == "pcie_p2p"


def _resnet(parallelism: str = "data", batch: int = 64) -> WorkProfile:
    w = make_workload(
        find_preset("VGG16"), precision="fp16", batch_size=batch, parallelism=parallelism
    )
    return profile_from_workload(w)


def test_independent_mode_total_never_drops_and_has_no_communication() -> None:
    r = estimate_throughput(_resnet("independent"), gpu("RTX 4090"), 8, FITTED)
    totals = [p.total_throughput for p in r.scaling]
    assert totals == sorted(totals)
    assert r.breakdown.communication_exposed_s == 0.0
    assert r.scaling[-1].efficiency == pytest.approx(1.0)


def test_nvlink_at_least_as_fast_as_pcie_and_p2p_beats_host() -> None:
    p = _resnet()
    for name in ("RTX 3090", "RTX A6000"):
        nv = estimate_throughput(p, gpu(name), 2, FITTED, interconnect="nvlink")
        pcie = estimate_throughput(p, gpu(name), 2, FITTED, interconnect="pcie")
        assert nv.total_throughput >= pcie.total_throughput
    # A small batch leaves the 138M-parameter all-reduce longer than the backward window.
    small = _resnet(batch=8)
    a6000 = estimate_throughput(small, gpu("RTX A6000"), 4, FITTED, interconnect="pcie")
    rtx3090 = estimate_throughput(small, gpu("RTX 3090"), 4, FITTED, interconnect="pcie")
    assert a6000.link == "pcie_p2p" and rtx3090.link == "pcie_host"
    assert a6000.breakdown.communication_exposed_s < rtx3090.breakdown.communication_exposed_s


def test_fewer_lanes_more_communication_and_named_bottleneck() -> None:
    p = _resnet()
    host = HostSpec(links=(HostLink(pcie_gen=4, lanes=4),) * 4)
    narrow = estimate_throughput(p, gpu("RTX 4090"), 4, FITTED, host=host)
    wide = estimate_throughput(p, gpu("RTX 4090"), 4, FITTED)
    assert narrow.breakdown.communication_exposed_s > wide.breakdown.communication_exposed_s
    assert narrow.bottleneck.code == "communication"
    assert (narrow.bottleneck.pcie_gen, narrow.bottleneck.lanes) == (4, 4)
    assert narrow.bottleneck.link == "pcie_host"


def test_data_parallel_efficiency_between_zero_and_one() -> None:
    r = estimate_throughput(_resnet(), gpu("RTX 3090"), 4, FITTED)
    assert [p.gpus for p in r.scaling] == [1, 2, 3, 4]
    assert r.scaling[0].efficiency == 1.0
    assert all(0.0 < p.efficiency <= 1.0 for p in r.scaling)
    assert 0.0 < r.utilization <= 1.0


def test_few_cpu_cores_make_data_loading_the_bottleneck() -> None:
    host = HostSpec(cpu_cores=2)
    r = estimate_throughput(_resnet("independent"), gpu("RTX 4090"), 4, FITTED, host=host)
    # 2 cores x 150 images/s = 300 images/s for all four GPUs together
    assert r.bottleneck.code == "data_loading"
    assert r.samples_per_s == pytest.approx(300.0)


def test_a_loader_slightly_slower_than_the_gpus_still_sets_the_pace() -> None:
    """The loader runs beside the GPUs: when it is only a little slower, the GPUs wait a
    small share of each step, less than their own largest class takes, yet it is the
    loader that sets the step (a faster GPU would gain nothing)."""
    p = _resnet("independent")
    free = estimate_throughput(p, gpu("RTX 4090"), 2, FITTED, host=HostSpec(cpu_cores=512))
    assert free.bottleneck.code != "data_loading"
    # cores whose 150 images/s each (hostio.SAMPLES_PER_CORE_S) give ~90 % of the GPUs' rate
    cores = int(0.9 * free.samples_per_s / 150.0)
    r = estimate_throughput(p, gpu("RTX 4090"), 2, FITTED, host=HostSpec(cpu_cores=cores))
    assert r.samples_per_s == pytest.approx(150.0 * cores)
    assert r.bottleneck.code == "data_loading"
    assert r.bottleneck.sets_pace
    assert 0.05 < r.bottleneck.share_of_step < 0.2  # the GPUs wait about 10 % of a step
    gpu_classes = (r.breakdown.matmul_s, r.breakdown.memory_bound_s)
    assert max(gpu_classes) > r.bottleneck.seconds
    assert not free.bottleneck.sets_pace


def test_time_to_target_epochs_and_tokens() -> None:
    p = profile(dataset_samples=1_000_000, target_epochs=2.0)
    assert time_to_target_s(p, 1000.0) == pytest.approx(2000.0)
    q = profile(seq_len=1024, target_tokens=1e9)
    assert time_to_target_s(q, 100.0) == pytest.approx(1e9 / 102400.0)


def test_inference_has_no_time_to_target() -> None:
    """A training target (90 epochs of ImageNet's 1,281,167 images) means nothing for a
    model that only runs inference: no time to target, whatever the workload carries."""
    from core.models.workload import TrainingTarget

    w = make_workload(find_preset("ResNet-50"), task="inference").model_copy(
        update={"dataset_samples": 1_281_167, "target": TrainingTarget(epochs=90)}
    )
    p = profile_from_workload(w)
    assert p.target_epochs is None and p.target_tokens is None
    assert time_to_target_s(p, 1000.0) is None
    trained = profile_from_workload(w.model_copy(update={"task": "training"}))
    assert time_to_target_s(trained, 1000.0) == pytest.approx(90 * 1_281_167 / 1000.0)


def test_host_launch_time_is_not_split_by_tensor_parallelism() -> None:
    """Each tensor-parallel rank splits the device work but launches every kernel."""
    c = FITTED.model_copy(update={"launch_s_per_layer": 1e-3})
    p = profile(matmul_flops=1e12, layers=10, parallelism="independent")
    h100 = gpu("H100 SXM5 80GB")
    one = estimate_throughput(p, h100, 1, c, curve=False)
    host = 10e-3  # 10 layers x 1 ms, all of it exposed: 1 TFLOP of matmul takes longer
    device = one.breakdown.matmul_s
    assert one.breakdown.launch_overhead_s == pytest.approx(host**2 / (host + device))
    tp = p.model_copy(update={"parallelism": "data", "tp_degree": 2})
    two = estimate_throughput(tp, h100, 2, c, curve=False)
    # the same host time against half the device work: more of it is exposed
    assert two.breakdown.launch_overhead_s == pytest.approx(host**2 / (host + device / 2))
    assert two.breakdown.matmul_s == pytest.approx(one.breakdown.matmul_s / 2)


def test_cpu_optimizer_step_runs_at_host_memory_bandwidth() -> None:
    """An optimizer kept in host RAM is stepped by the CPU: Llama 3.1 8B (8,030,261,248
    parameters) in pure bf16 with AdamW moves 14 B per parameter (read weight, gradient,
    m, v: 2 + 2 + 4; write weight, m, v: 2 + 4). On two channels of DDR5-5600
    (2 x 5,600 MT/s x 8 B = 89.6 GB/s) at 60 % of the peak: 8,030,261,248 x 14 /
    (89.6e9 x 0.6) = 2.091 s more per step, and the GPU no longer steps it. A host whose
    memory is not known is assumed to be that one (never a free step); one channel
    (44.8 GB/s) takes twice as long."""
    workload = make_workload(
        find_preset("Llama 3.1 8B"),
        task="training",
        precision="bf16",
        seq_len=2048,
        master_weights="none",
        checkpointing="full",
    )
    card = gpu("RTX 4090")
    offloaded = workload.model_copy(update={"offload": "optimizer"})
    links = (X16_GEN4,)
    known = HostSpec(links=links, memory_gb_s=89.6)
    one_channel = HostSpec(links=links, memory_gb_s=44.8)
    unknown = HostSpec(links=links)

    def run(w: Workload, host: HostSpec, gpus: int = 1) -> ThroughputResult:
        return estimate_throughput(profile_from_workload(w), card, gpus, FITTED, host=host)

    on_gpu, timed = run(workload, known), run(offloaded, known)
    slow, assumed = run(offloaded, one_channel), run(offloaded, unknown)
    cpu_step = 8_030_261_248 * 14 / (89.6e9 * 0.6)
    assert cpu_step == pytest.approx(2.0913, abs=1e-4)
    assert slow.breakdown.offload_s - timed.breakdown.offload_s == pytest.approx(cpu_step)
    assert assumed.breakdown.offload_s == pytest.approx(timed.breakdown.offload_s)
    # the GPU's own optimizer traffic (14 B per parameter at its bandwidth) is gone
    assert timed.breakdown.memory_bound_s < on_gpu.breakdown.memory_bound_s
    assert timed.bottleneck.code == "offload"
    # sharded over 4 GPUs (FSDP) the one host steps the model once, not four copies
    fsdp = offloaded.model_copy(update={"parallelism": "fsdp"})
    four = run(fsdp, HostSpec(links=links * 4, memory_gb_s=89.6), 4)
    four_slow = run(fsdp, HostSpec(links=links * 4, memory_gb_s=44.8), 4)
    assert four_slow.breakdown.offload_s - four.breakdown.offload_s == pytest.approx(cpu_step)


def _pipeline(stages: int, chunks: int = 1, micro_batches: int = 8, **kw: object) -> WorkProfile:
    base: dict[str, object] = {"matmul_flops": 1e12, "layers": 16, "batch_per_gpu": 8}
    base |= {"pp_degree": stages, "pp_virtual_stages": chunks, "grad_accum_steps": micro_batches}
    return profile(**(base | kw))


def test_pipeline_stages_split_the_work_and_pay_the_bubble_hand_derived() -> None:
    """Narayanan et al. 2021 §2.2: with p stages, m micro-batches and v chunks per GPU the
    pipeline idles (p - 1) / (v m) of its useful time. Each of 4 stages runs 1/4 of the
    model: 4 GPUs give 4 / (1 + 3/8) of one GPU's throughput, 4 / (1 + 3/16) with two
    chunks each, and nothing crosses a link here (no gradients, no activation sizes)."""
    h100 = gpu("H100 SXM5 80GB")
    one = estimate_throughput(_pipeline(1), h100, 1, UNIT, curve=False)
    piped = estimate_throughput(_pipeline(4), h100, 4, UNIT, curve=False)
    assert piped.total_throughput == pytest.approx(one.total_throughput * 4 / (1 + 3 / 8))
    assert piped.breakdown.pipeline_bubble_s == pytest.approx(one.breakdown.step_s / 4 * 3 / 8)
    assert piped.breakdown.matmul_s == pytest.approx(one.breakdown.matmul_s / 4)
    assert piped.breakdown.communication_exposed_s == 0.0
    interleaved = estimate_throughput(_pipeline(4, chunks=2), h100, 4, UNIT, curve=False)
    assert interleaved.total_throughput == pytest.approx(one.total_throughput * 4 / (1 + 3 / 16))
    # 8 GPUs as 2 pipelines of 4: twice the 4-GPU rate (no gradients to exchange)
    two = estimate_throughput(_pipeline(4), h100, 8, UNIT, curve=False)
    assert two.total_throughput == pytest.approx(2 * piped.total_throughput)
    # fewer micro-batches (2) than stages (4): the chunks cannot fill, the bubble is
    # (4 - 1) / 2 whether interleaved or not
    short = estimate_throughput(_pipeline(4, chunks=2, micro_batches=2), h100, 4, UNIT, curve=False)
    assert short.total_throughput == pytest.approx(one.total_throughput * 4 / (1 + 3 / 2))


def test_pipeline_sends_each_chunks_activations_both_ways_hand_derived() -> None:
    """One micro-batch of 8 x 1024 tokens x hidden 4096 in 16 bit is 67,108,864 B; with 2
    chunks per GPU each stage sends 2 x 2 such tensors (forward activations, backward
    gradients) over NVSwitch, 450 GB/s per direction (eta_link 1)."""
    p = _pipeline(4, chunks=2, seq_len=1024, hidden_size=4096)
    r = estimate_throughput(p, gpu("H100 SXM5 80GB"), 4, UNIT, curve=False)
    assert r.breakdown.communication_exposed_s == pytest.approx(2 * 2 * 67_108_864 / 450e9)


def test_transformer_engine_hides_tensor_parallel_all_reduces_under_its_products() -> None:
    """TP all-reduce bytes per GPU (Megatron-LM: 2 forward + 2 backward per layer of
    s·b·h 16-bit values, ring factor (t-1)/t): 4 x 16 x 67,108,864 x 2 x 1/2 B. Eager
    PyTorch exposes all of it; Transformer Engine's userbuffers overlap it with the
    products, so only what outlasts overlap_fraction of the GPU's share of them shows."""
    from core.calc.performance.roofline import gpu_step_time

    h100 = gpu("H100 SXM5 80GB")
    c = UNIT.model_copy(update={"overlap_fraction": 0.5})
    kw = {"seq_len": 1024, "hidden_size": 4096, "tp_degree": 2}
    tp_s = 4 * 16 * 67_108_864 * 2 * 0.5 / 450e9
    eager = profile(**{"matmul_flops": 1e12, "layers": 16, "batch_per_gpu": 8} | kw)
    r = estimate_throughput(eager, h100, 2, c, curve=False)
    assert r.breakdown.communication_exposed_s == pytest.approx(tp_s)
    fused = eager.model_copy(update={"stack": "transformer-engine"})
    matmul_s = gpu_step_time(fused, h100, c).matmul_s
    r = estimate_throughput(fused, h100, 2, c, curve=False)
    assert r.breakdown.communication_exposed_s == pytest.approx(max(0.0, tp_s - matmul_s / 2 * 0.5))
    assert r.breakdown.communication_exposed_s < tp_s


def test_sharded_lora_gathers_its_frozen_base_hand_derived() -> None:
    # LoRA: 1e6 trainable adapters (fp32 grads, 4e6 B) on a frozen base of 1e8 16-bit
    # weights (2e8 B). Data parallel exchanges only the adapters' gradients: a ring over
    # 4 GPUs moves 2*3/4*4e6 = 6e6 B. ZeRO-3/FSDP also shard the base: each rank gathers
    # the 3/4 it lacks for the forward and again for the backward, 2*3/4*2e8 = 3e8 B,
    # on top of the adapters' gather, gather and reduce-scatter, 1.5*6e6 = 9e6 B.
    # PCIe 4.0 x16 P2P at 31.504 GB/s, eta_link 1, no overlap, no latency.
    kw: dict[str, object] = {
        "matmul_flops": 1e9,
        "params_total": 1e8,
        "params_trainable": 1e6,
        "pass_factor": 2.0,
        "frozen_weight_bytes": 2e8,
    }
    a100 = gpu("A100 PCIe 40GB")
    data = estimate_throughput(profile(**kw), a100, 4, UNIT, interconnect="pcie")
    assert data.breakdown.communication_exposed_s == pytest.approx(6e6 / 31.504e9)
    for stage in ("zero3", "fsdp"):
        sharded = estimate_throughput(
            profile(**kw, parallelism=stage), a100, 4, UNIT, interconnect="pcie"
        )
        assert sharded.breakdown.communication_exposed_s == pytest.approx((9e6 + 3e8) / 31.504e9)
        assert sharded.bottleneck.exchange == "sharded"
    assert data.bottleneck.exchange == "gradients"


def test_frozen_base_bytes_of_lora_and_qlora_presets() -> None:
    # Llama-3 8B: the frozen base is stored 16-bit under LoRA (2 B per parameter); QLoRA
    # packs the linear layers to NF4 with double quantisation (4.127 bits, Dettmers et
    # al. 2023 §3) and keeps the embeddings 16-bit. Full training freezes nothing.
    preset = find_preset("llama-3-8b")
    arch = preset.architecture
    lora = profile_from_workload(make_workload(preset, task="lora"))
    qlora = profile_from_workload(make_workload(preset, task="qlora"))
    full = profile_from_workload(make_workload(preset, task="training"))
    assert lora.frozen_weight_bytes == pytest.approx(arch.params_total * 2.0)
    dense = arch.params_total - arch.embedding_params
    assert qlora.frozen_weight_bytes == pytest.approx(
        dense * 4.127 / 8 + arch.embedding_params * 2.0
    )
    assert full.frozen_weight_bytes == 0.0
