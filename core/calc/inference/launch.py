"""The engine command line a serving plan assumes, so a user can start what was estimated.

llama.cpp (``llama-server``, tools/server/README.md): ``-ngl`` layers on the GPUs, ``-c``
the context of all slots together (each of the ``-np`` slots gets ``-c / -np``),
``--split-mode``/``-ts`` how several GPUs share the layers, ``--n-cpu-moe`` experts of the
first N layers in host RAM, ``-fa`` flash attention, ``--cache-type-k/-v`` the KV cache
format, ``-md``/``--draft-max`` a draft model. vLLM (``vllm serve``, engine arguments):
``--tensor-parallel-size`` or ``--pipeline-parallel-size``, ``--max-model-len``,
``--max-num-seqs``, ``--kv-cache-dtype``, ``--gpu-memory-utilization``,
``--speculative-config``. SGLang (``sglang.launch_server``): ``--tp``, ``--context-length``,
``--kv-cache-dtype``, ``--mem-fraction-static``. TensorRT-LLM (``trtllm-serve``):
``--tp_size``, ``--max_batch_size``, ``--max_seq_len``. GGUF files are named as their
releases usually are (``<model>-Q4_K_M.gguf``) and repositories by the preset's Hugging
Face id; ``DRAFT-MODEL`` and ``NODE2`` stand for the draft model and the second machine
the user chose.
"""

from __future__ import annotations

import json
import shlex

from core.calc.inference.constants import FITTED, SPECULATIVE_DEFAULTS
from core.calc.inference.model import GIB, LlmShape
from core.models.workload import Serving, Workload

GGUF_NAMES = {
    "f16": "F16",
    "bf16": "BF16",
    "q8_0": "Q8_0",
    "q6_k": "Q6_K",
    "q5_k_m": "Q5_K_M",
    "q4_k_m": "Q4_K_M",
    "q4_0": "Q4_0",
    "iq4_xs": "IQ4_XS",
    "mxfp4": "MXFP4",
}
VLLM_KV = {"fp8": "fp8", "q8_0": "fp8", "q4_0": "fp8"}
ROCM_GEMM = "ROCBLAS_USE_HIPBLASLT=1"
"""The environment that makes llama.cpp's ROCm build multiply with hipBLASLt, the setup
its ROCm constants were fitted on (a Strix Halo's prompts ran 3x slower without it)."""


def _model_name(workload: Workload) -> str:
    return workload.name.replace(" ", "-")


def launch_command(
    workload: Workload, gpu_count: int, *, nodes: int = 1, backend: str | None = None
) -> str | None:
    """The command line that starts ``workload``'s engine as planned (``None`` for an
    engine without a server command: Hugging Face transformers, ExLlamaV2). ``nodes`` 2:
    two machines, llama.cpp's RPC backend (``rpc-server`` on the second, ``--rpc`` on the
    first) or vLLM's pipeline over Ray. ``backend``: the GPU software it runs on (the
    serving's own, else the GPU maker's); llama.cpp on ROCm is estimated with hipBLASLt's
    GEMM kernels, which ``ROCBLAS_USE_HIPBLASLT=1`` selects."""
    serving = workload.serving_settings
    engine = serving.engine
    if engine == "llama.cpp":
        args = _llama_cpp(workload, serving, gpu_count * nodes)
        if nodes > 1:
            args += ["--rpc", "NODE2:50052"]
        env = f"{ROCM_GEMM} " if (serving.backend or backend) == "rocm" else ""
        command = env + shlex.join(args)
        if nodes > 1:
            return f"{env}rpc-server -H 0.0.0.0 -p 50052  # on the second node\n{command}"
        return command
    if engine == "mlx-lm":
        return shlex.join(["mlx_lm.server", "--model", _hf_id(workload)])
    if engine == "vllm":
        args = _vllm(workload, serving, gpu_count * nodes)
        if nodes > 1:
            args += ["--distributed-executor-backend", "ray"]
            return (
                "ray start --head --port 6379  # on the first node\n"
                "ray start --address NODE1:6379  # on the second node\n" + shlex.join(args)
            )
        return shlex.join(args)
    if engine == "sglang":
        args = ["python", "-m", "sglang.launch_server", "--model-path", _hf_id(workload)]
        args += ["--tp", str(gpu_count)] if gpu_count > 1 else []
        args += ["--context-length", str(serving.context)]
        if serving.kv_cache != "f16":
            args += ["--kv-cache-dtype", "fp8_e5m2"]
        reserve = FITTED.engine("sglang", "NVIDIA").reserve_fraction
        args += ["--mem-fraction-static", f"{reserve:g}"]
        return shlex.join(args)
    if engine == "tensorrt-llm":
        args = ["trtllm-serve", _hf_id(workload)]
        args += ["--tp_size", str(gpu_count)] if gpu_count > 1 else []
        args += ["--max_batch_size", str(serving.streams), "--max_seq_len", str(serving.context)]
        return shlex.join(args)
    return None


def _hf_id(workload: Workload) -> str:
    """The Hugging Face repository id the preset names, else its name."""
    from core.errors import RigForgeError
    from core.workloads import find_preset

    if workload.preset_id:
        try:
            preset = find_preset(workload.preset_id)
        except RigForgeError:
            return _model_name(workload)
        for alias in preset.aliases:
            if "/" in alias:
                return alias
    return _model_name(workload)


def _llama_cpp(workload: Workload, serving: Serving, count: int) -> list[str]:
    weights = GGUF_NAMES.get(serving.weights, serving.weights.upper())
    layers = "999"
    if serving.offload_gib:  # the layers that stay on the GPUs, the rest on the CPU
        shape = LlmShape.of(workload.architecture, serving.engine)
        total = shape.weight_bytes(serving.weights) / GIB
        share = max(0.0, 1.0 - serving.offload_gib / total) if total else 1.0
        layers = str(int(shape.layers * share))
    args = ["llama-server", "-m", f"{_model_name(workload)}-{weights}.gguf", "-ngl", layers]
    args += ["-c", str(serving.context * serving.streams), "-np", str(serving.streams)]
    if count > 1:
        args += ["--split-mode", "row" if serving.split == "tensor" else "layer"]
        args += ["-ts", ",".join(["1"] * count)]
    if serving.n_cpu_moe:
        args += ["--n-cpu-moe", str(serving.n_cpu_moe)]
    args += ["-fa", "on" if serving.flash_attention else "off"]
    if serving.kv_cache != "f16":
        args += ["--cache-type-k", serving.kv_cache, "--cache-type-v", serving.kv_cache]
    if serving.speculative == "draft":
        draft = serving.draft_model or "DRAFT-MODEL"
        tokens = serving.draft_tokens or SPECULATIVE_DEFAULTS["draft"].draft_tokens
        args += ["-md", f"{draft}-{weights}.gguf", "-ngld", "999", "--draft-max", str(tokens)]
    elif serving.speculative == "mtp":
        tokens = serving.draft_tokens or SPECULATIVE_DEFAULTS["mtp"].draft_tokens
        args += ["--spec-type", "draft-mtp", "--draft-max", str(tokens)]
    elif serving.speculative == "ngram":
        tokens = serving.draft_tokens or SPECULATIVE_DEFAULTS["ngram"].draft_tokens
        args += ["--spec-type", "ngram", "--draft-max", str(tokens)]
    return args


def _vllm(workload: Workload, serving: Serving, count: int) -> list[str]:
    args = ["vllm", "serve", _hf_id(workload)]
    if count > 1:
        flag = "--tensor-parallel-size" if serving.split == "tensor" else "--pipeline-parallel-size"
        args += [flag, str(count)]
    args += ["--max-model-len", str(serving.context), "--max-num-seqs", str(serving.streams)]
    if serving.kv_cache in VLLM_KV:
        args += ["--kv-cache-dtype", VLLM_KV[serving.kv_cache]]
    reserve = FITTED.engine("vllm", "NVIDIA").reserve_fraction
    args += ["--gpu-memory-utilization", f"{reserve:g}"]
    if serving.speculative != "none":
        method = serving.speculative
        tokens = serving.draft_tokens or SPECULATIVE_DEFAULTS[method].draft_tokens
        config: dict[str, object] = {"num_speculative_tokens": tokens}
        if method == "draft":
            config["model"] = serving.draft_model or "DRAFT-MODEL"
        else:
            config["method"] = "mtp" if method == "mtp" else "ngram"
        args += ["--speculative-config", json.dumps(config, separators=(",", ":"))]
    return args
