"""Global constants of the serving model, one set per engine where the physics differs.

Fitted by ``tools/fit/fit_inference.py`` on the published measurements it lists
(``../shared/data/benchmarks/llm_inference_calibration.csv`` and
``resources/benchmarks/llm_inference_published.csv``), never per GPU or per row, with the
held-out sources of docs/inference-model.md excluded. ``docs/inference-model.md`` records
the fit and the leave-one-GPU-out and leave-one-source-out errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class EngineConstants:
    bandwidth_efficiency: float
    """Share of the DRAM peak a decode step's weight and KV reads reach."""
    per_sm_gb_s: float
    """Bytes in flight per streaming multiprocessor over the memory latency (Little's law),
    GB/s: a card with few SMs for its bandwidth cannot keep its DRAM busy."""
    layer_overhead_s: float
    """Fixed time per layer and decode step: kernel launches and synchronisation."""
    token_overhead_s: float
    """Fixed time per decode step outside the layers: sampling, host round trip."""
    prefill_efficiency: float
    """Share of the tensor-core peak the prompt's 16-bit matrix products reach."""
    prefill_quant_efficiency: float
    """The same for block-quantised weights (dequantising kernels, int8 products)."""
    hop_s: float
    """Layer split: cost of passing one token's activations to the next GPU."""
    reserve_fraction: float | None
    """Share of the GPU the engine claims at start (vLLM gpu_memory_utilization);
    ``None``: it allocates what it needs."""
    context_gib: float
    """CUDA context and runtime per GPU."""
    graphs_gib: float = 0.0
    """CUDA graphs captured at start."""
    tensor_syncs_per_layer: float = 2.0
    """Tensor split: collective operations per layer (Megatron-LM, Shoeybi et al. 2019 §3:
    one all-reduce after attention and one after the MLP). llama.cpp's split (``-sm row``)
    splits each weight matrix by rows, copies its input to every card and gathers its
    output on the main card, several transfers per layer: fitted."""
    tensor_sync_s: float = 0.0
    """Tensor split: the engine's own cost per transfer (stream synchronisation, copy and
    kernel launches), a floor under the link's latency whatever the link. llama.cpp's row
    split was fitted on runs through host memory only, which cannot tell its own cost
    from the link's: it keeps that path's latency on NVLink and peer-to-peer too."""
    tensor_message_bytes: float = 2.0
    """Tensor split: bytes each of those operations moves per token and hidden value (16-bit
    activations for an all-reduce; llama.cpp's gathers move 32-bit outputs as wide as the
    MLP's: fitted)."""
    ubatch: int = 512
    """Tokens per prefill micro-batch (llama.cpp n_ubatch)."""
    pipeline_depth: int = 4
    """Micro-batches a layer split pipelines together (llama.cpp n_batch / n_ubatch =
    2048 / 512: llama.cpp README and ``common/common.h`` defaults)."""
    host_bandwidth_efficiency: float = 0.6
    """Share of the host DRAM peak the CPU reaches on offloaded layers."""
    dequant_ops_per_weight: float = 0.0
    """Integer/FP32 operations a decode kernel spends unpacking one block-quantised
    weight, at the GPU's FP32 lane rate (not overlapped with the loads in small-batch
    kernels)."""
    attention_matrix_passes: float = 0.0
    """Without fused (flash) attention the prompt's P × P score matrix of every head is
    written and read this many times in fp32; 0 for engines that fuse it."""
    kv_reread_share: float = 0.0
    """Without flash attention a decode step computes every query head's scores and
    weighted values with its own matrix-vector products over the cache (ggml's
    ``mul_mat`` broadcasts a KV head to the query heads that share it), so grouped-query
    attention reads each KV head once per query head: the share of those repeated reads
    that reach DRAM (the rest hit the L2 cache). 0 for fused attention kernels, which
    read the cache once."""
    gqa_reread_share: float = 0.0
    """A fused decode-attention kernel that still runs one block per query head reads each
    KV head once per query head sharing it (grouped-query attention): the share of those
    repeated reads that reach DRAM. TensorRT-LLM's masked multi-head attention kernel does
    so where its XQA kernel for MQA/GQA does not apply (NVIDIA, "XQA kernel", TensorRT-LLM
    docs/source/blogs/XQA-kernel.md: 2.4x the throughput of Llama-70B on an H200 with it);
    fitted on its 0.9.0 rows. 0 for kernels that read each KV head once."""
    moe_half_rows: float = 0.0
    """Rows per expert at which a micro-batch's expert products reach half the dense rate
    (a prompt micro-batch of U tokens gives each of E experts U × k / E rows); llama.cpp's
    64 from a scan over its published MoE prompt rows (docs/inference-model.md)."""
    fp16_accumulate: bool = True
    """The prompt's 16-bit matrix products accumulate in FP16 (llama.cpp's cuBLAS path,
    ExLlamaV2's half-precision GEMMs), at the FP16-accumulate rate where a card has one;
    ``False``: in FP32, as PyTorch and TensorRT-LLM do (half that rate on GeForce cards)."""
    verify_token_share: float = 0.34
    """Speculative decoding: each drafted token a verify step checks costs this share of
    a plain (one-token) step's memory time, for the engine's small-batch kernels. Fitted
    on the published llama.cpp speed-ups (``tools/fit/check_serving_2026.py``: MTP heads
    and draft models, 17 rows from 5 sources, on NVIDIA, AMD and Apple GPUs); the other
    engines share it (no published rows)."""
    basis: str = ""
    """What the engine's constants were fitted on, in a user's words (shown with its
    estimates)."""


DEFAULT_BACKENDS = {"NVIDIA": "cuda", "AMD": "rocm", "Intel": "sycl", "Apple": "metal"}


def default_backend(vendor: str) -> str:
    """The GPU software an engine uses on ``vendor``'s GPUs unless told otherwise."""
    return DEFAULT_BACKENDS.get(vendor, "cuda")


@dataclass(frozen=True)
class SpeculativeDefault:
    draft_tokens: int
    acceptance: float
    source: str


SPECULATIVE_DEFAULTS: dict[str, SpeculativeDefault] = {
    "draft": SpeculativeDefault(
        draft_tokens=16,
        acceptance=0.8,
        source="llama.cpp's --draft-max default 16 (common/common.h); acceptance: see "
        "docs/inference-model.md",
    ),
    "mtp": SpeculativeDefault(
        draft_tokens=1,
        acceptance=0.85,
        source="DeepSeek-V3 Technical Report (arXiv:2412.19437) §5.4.3: one MTP token, "
        "accepted 85-90 % of the time",
    ),
    "ngram": SpeculativeDefault(
        draft_tokens=4,
        acceptance=0.5,
        source="see docs/inference-model.md",
    ),
}
"""Draft length and acceptance when the user gives none, per speculative method."""


@dataclass(frozen=True)
class InferenceConstants:
    engines: dict[str, EngineConstants] = field(default_factory=dict)
    """By engine; ``"<engine>@<vendor>"`` holds an engine's constants on one GPU maker's
    cards where its software differs there (vLLM on Intel GPUs runs its XPU backend, not
    CUDA graphs); ``"<engine>@<year-month>"`` an older build's, used only to predict
    measurements taken with that build (``core.validation.inference.RELEASES``)."""
    allreduce_latency_s: dict[str, float] = field(default_factory=dict)
    """Latency of one small all-reduce by link kind (nvlink, pcie, host)."""
    clock_exponent: float = 0.574
    """Prompt processing keeps the tensor cores busy, so the GPU runs near the clock it
    sustains at its board power: the rate is the boost-clock peak × (base / boost clock)
    to this power (the base clock is the maker's guaranteed clock under full load)."""
    decode_power_fraction: float = 0.58
    """GPU draw while generating, as a share of board power: the mean of SplitwiseSim's
    token-phase power constants (Microsoft, with Patel et al., "Splitwise", ISCA 2024;
    configs/power_model/constant.yaml): A100 80 GB 250 of 400 W, H100 380 of 700 W.
    These are a simulator's settings, not a measurement table (llm_power_published.csv)."""
    prefill_power_fraction: float = 1.0
    """GPU draw while processing a prompt: the same source sets the prompt phase to the
    full board power (A100 400 W, H100 700 W)."""

    def engine(
        self, name: str, vendor: str, backend: str | None = None, build: str | None = None
    ) -> EngineConstants:
        """The constants of engine ``name`` on a GPU made by ``vendor``, running on
        ``backend`` (``None``: the maker's own software, ``default_backend``); ``build``
        an older engine build with its own entry (``"llama.cpp@2023-12"``)."""
        if build is not None and f"{name}@{build}" in self.engines:
            return self.engines[f"{name}@{build}"]
        backend = backend or default_backend(vendor)
        return (
            self.engines.get(f"{name}@{backend}")
            or self.engines.get(f"{name}@{vendor}")
            or self.engines[name]
        )


_LLAMA_CPP = EngineConstants(
    bandwidth_efficiency=0.9637,
    per_sm_gb_s=10.20,
    layer_overhead_s=100.0e-6,
    token_overhead_s=24.6e-6,
    prefill_efficiency=0.791,
    prefill_quant_efficiency=0.451,
    hop_s=0.222e-3,
    reserve_fraction=None,
    context_gib=0.2,
    # its row split (-sm row): fitted on pull request #19378's 4x RTX 4090 rows
    # (tools/fit/fit_row_split.py)
    tensor_syncs_per_layer=4.5,
    tensor_message_bytes=7.5,
    tensor_sync_s=60e-6,  # = allreduce_latency_s["host"], the path it was fitted on
    ubatch=512,
    attention_matrix_passes=7.21,
    dequant_ops_per_weight=0.050,
    kv_reread_share=0.67,
    moe_half_rows=64.0,
    basis=(
        "fitted on 232 llama.cpp rows on 11 NVIDIA GPUs (XiongjieDai, May 2024 build) and "
        "other published llama.cpp rows (llm-tracker.info, llama.cpp pull requests)"
    ),
)
"""Fitted on the llama.cpp rows (XiongjieDai, llm-tracker.info, llama.cpp pull requests)."""

_VLLM = EngineConstants(
    bandwidth_efficiency=_LLAMA_CPP.bandwidth_efficiency,
    per_sm_gb_s=60.0,
    layer_overhead_s=0.1e-6,
    token_overhead_s=2.81e-3,
    prefill_efficiency=_LLAMA_CPP.prefill_efficiency,
    prefill_quant_efficiency=_LLAMA_CPP.prefill_quant_efficiency,
    hop_s=0.3e-3,
    reserve_fraction=0.9,
    context_gib=0.5,
    graphs_gib=0.7,
    ubatch=8192,
    fp16_accumulate=False,
    basis=(
        "fitted on 6 published vLLM rows on NVIDIA H100 and B200 (vLLM blog, "
        "2026): its cost per generated token and its bytes in flight per SM; "
        "prompt processing at llama.cpp's share of the FP32-accumulate tensor rate, "
        "checked on 17 published vLLM first-token runs it was not fitted on (18.5 % "
        "median)"
    ),
)
"""vLLM on NVIDIA (CUDA graphs): its per-token cost and per-SM bound fitted on its published
H100 and B200 rows (the bound came out at the search's limit, 60 GB/s per SM: it does not
bind on those cards, whose kernels read weights at 2-3x llama.cpp's per-SM rate); no
prompt-processing rows, so llama.cpp's prefill efficiencies."""


def _on_backend(
    bandwidth: float,
    prefill: float,
    prefill_quant: float,
    basis: str,
    *,
    moe_half_rows: float = _LLAMA_CPP.moe_half_rows,
) -> EngineConstants:
    """llama.cpp's kernels on other GPU software: CUDA's fixed costs per layer and token
    (fitted on many more rows), the backend's own share of the DRAM peak and prompt rates
    for 16-bit and block-quantised weights (fitted on that backend's published runs)."""
    return replace(
        _LLAMA_CPP,
        bandwidth_efficiency=bandwidth,
        prefill_efficiency=prefill,
        prefill_quant_efficiency=prefill_quant,
        moe_half_rows=moe_half_rows,
        basis=basis,
    )


FITTED = InferenceConstants(
    engines={
        "llama.cpp": _LLAMA_CPP,
        # The DRAM bandwidth a GPU's weight-streaming kernels reach is the hardware's:
        # every engine shares llama.cpp's fitted bandwidth constants (many GPUs) and has
        # its own costs per token and layer and its own prefill kernels
        # (tools/fit/fit_inference.py).
        # llama.cpp's December 2023 build (XiongjieDai's ./main tables): its own prompt
        # kernels and per-token costs; predicts only rows measured with it.
        "llama.cpp@2023-12": replace(
            _LLAMA_CPP,
            layer_overhead_s=94.2e-6,
            token_overhead_s=1.0e-6,
            prefill_efficiency=0.441,
            prefill_quant_efficiency=0.300,
            basis="llama.cpp's December 2023 build (./main), fitted on its published rows",
        ),
        "vllm": _VLLM,
        # vLLM on Intel GPUs runs its XPU backend: fitted on its published Arc Pro B60 rows
        # (no SM count there, so the per-SM bound does not apply).
        "vllm@Intel": replace(
            _VLLM,
            per_sm_gb_s=_LLAMA_CPP.per_sm_gb_s,
            layer_overhead_s=0.1e-6,
            token_overhead_s=1.0e-6,
            prefill_efficiency=0.294,
            prefill_quant_efficiency=1.0,
            basis=(
                "fitted on 6 published vLLM rows, all on Intel Arc Pro B60 (vLLM blog), "
                "with each request's prompt between the decode steps: vLLM's XPU backend "
                "on Intel GPUs"
            ),
        ),
        "tensorrt-llm": EngineConstants(
            bandwidth_efficiency=_LLAMA_CPP.bandwidth_efficiency,
            # its own kernels keep more bytes in flight per SM than llama.cpp's (fitted:
            # an H100 SXM's 132 SMs reach 2.5 TB/s, not llama.cpp's 1.35)
            per_sm_gb_s=19.13,
            layer_overhead_s=75.7e-6,
            token_overhead_s=66.7e-6,
            prefill_efficiency=0.674,
            # its decode attention re-reads shared KV heads where XQA does not apply
            gqa_reread_share=0.179,
            prefill_quant_efficiency=1.0,
            hop_s=0.2e-3,
            reserve_fraction=0.9,
            context_gib=0.5,
            graphs_gib=0.5,
            ubatch=8192,
            fp16_accumulate=False,
            basis=(
                "fitted on 72 published TensorRT-LLM 0.9.0 rows (NVIDIA's performance "
                "page: H100, H200, L40S): its own bytes in flight per SM, costs per layer "
                "and token, prompt kernels and re-reads of shared KV heads"
            ),
        ),
        "sglang": EngineConstants(
            bandwidth_efficiency=_LLAMA_CPP.bandwidth_efficiency,
            # its own bytes in flight per SM (fitted: 19.0 GB/s, as TensorRT-LLM's 19.1,
            # fitted apart) and a cost per layer; no cost per step beyond them
            per_sm_gb_s=19.05,
            layer_overhead_s=70.6e-6,
            token_overhead_s=1.0e-6,
            prefill_efficiency=0.6,
            prefill_quant_efficiency=0.45,
            hop_s=0.3e-3,
            reserve_fraction=0.88,
            context_gib=0.5,
            graphs_gib=0.7,
            ubatch=8192,
            fp16_accumulate=False,
            basis=(
                "decode fitted on 28 published SGLang rows (Qwen's speed benchmark on the "
                "H20, LMSYS's gpt-oss runs on H100 and B200): its own bytes in flight per "
                "SM and cost per layer; prompt kernels not fitted (no published rows)"
            ),
        ),
        "transformers": EngineConstants(
            bandwidth_efficiency=_LLAMA_CPP.bandwidth_efficiency,
            per_sm_gb_s=_LLAMA_CPP.per_sm_gb_s,
            layer_overhead_s=0.1e-6,
            token_overhead_s=37.15e-3,
            prefill_efficiency=0.735,
            prefill_quant_efficiency=0.523,
            hop_s=0.5e-3,
            reserve_fraction=None,
            context_gib=0.5,
            ubatch=100_000,
            fp16_accumulate=False,
            basis=(
                "fitted on 35 published Hugging Face transformers rows (Optimum's GPTQ "
                "benchmark, A100): eager decoding, a large cost per token"
            ),
        ),
        "exllamav2": EngineConstants(
            bandwidth_efficiency=_LLAMA_CPP.bandwidth_efficiency,
            per_sm_gb_s=_LLAMA_CPP.per_sm_gb_s,
            layer_overhead_s=15e-6,
            token_overhead_s=1.0e-3,
            prefill_efficiency=0.5,
            prefill_quant_efficiency=0.45,
            hop_s=0.2e-3,
            reserve_fraction=None,
            context_gib=0.4,
            ubatch=2048,
            basis=(
                "not fitted: no published ExLlamaV2 rows; shared bandwidth constants, "
                "assumed per-token costs"
            ),
        ),
        # llama.cpp on other GPU software (tools/fit/fit_backends.py; docs/inference-model.md)
        "llama.cpp@rocm": _on_backend(
            0.753,
            0.297,
            0.289,
            "llama.cpp on ROCm with hipBLASLt's GEMM kernels (ROCBLAS_USE_HIPBLASLT=1, as "
            "the launch command sets) and flash attention on the matrix cores (a rocWMMA "
            "build): fitted on 39 published llama-bench rows of a Strix Halo system "
            "(lhl/strix-halo-testing, August 2025 builds)",
            moe_half_rows=0.0,  # its MoE prompt rows show no few-rows penalty
        ),
        "llama.cpp@vulkan": _on_backend(
            0.831,
            1.0,
            0.181,
            "llama.cpp on Vulkan (AMDVLK, RADV): fitted on 32 published llama-bench rows "
            "of a Strix Halo system (lhl/strix-halo-testing, August 2025 builds)",
            moe_half_rows=0.0,
        ),
        "llama.cpp@metal": _on_backend(
            0.896,
            0.847,
            1.0,
            "llama.cpp on Metal: fitted on 31 published rows of M3 Ultra, M4 Max and M4 "
            "Pro Macs (llama-bench rows of llama.cpp discussion #4167, as quoted; "
            "draftbench's llama-server decode rows on an M4 Max)",
        ),
        "llama.cpp@sycl": replace(
            _LLAMA_CPP,
            basis="llama.cpp on SYCL: not fitted (no published rows read); CUDA's constants",
        ),
        "mlx-lm": _on_backend(
            0.943,
            0.796,
            0.533,
            "MLX-LM on Apple silicon: fitted on 2 published decode rows of an M3 Ultra "
            "(Rapid-MLX); its prompt rate is not measured",
        ),
    },
    allreduce_latency_s={"nvlink": 8e-6, "pcie": 25e-6, "host": 60e-6, "network": 200e-6},
)
