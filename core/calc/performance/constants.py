"""Global constants of the performance model: a handful, fitted once on all calibration rows.

None of them is per GPU or per benchmark row. The fitted ones come from
``tools/fit/fit_throughput.py`` (log-error least squares over the bundled
``resources/benchmarks/throughput_calibration.csv``); the measured ones cite their source.
See docs/performance-model.md for the fit and the validation figures it reaches.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from core.models.common import Frozen

Fraction = Annotated[float, Field(gt=0, le=1.5)]


class ThroughputConstants(Frozen):
    # --- achievable fraction of peak, by operation class and generation (fitted) ---
    eta_tensor_volta_turing: Fraction
    """Tensor-core matmul/conv efficiency on Volta and Turing."""
    eta_tensor_ampere_ada: Fraction
    eta_tensor_hopper_blackwell: Fraction
    eta_simt_fp32: Fraction
    """Matmul efficiency on FP32 CUDA cores (no tensor cores in use)."""
    attention_rel: Fraction
    """Attention (s^2) kernels relative to large matmuls (unfused softmax chain)."""
    recurrent_rel: Fraction
    """Recurrent-cell matmuls relative to large matmuls (small per-timestep GEMMs)."""
    eta_memory: Fraction
    """Fraction of peak DRAM bandwidth reached by elementwise and weight streaming."""
    per_sm_gb_s: Annotated[float, Field(ge=0, le=1000)] = 0.0
    """DRAM bandwidth one streaming multiprocessor sustains on elementwise kernels of
    4-byte values, GB/s (fitted; 0: no bound). By Little's law a kernel streams at most
    the bytes its SMs have in flight over the memory latency. PyTorch's elementwise
    kernels load at most 4 values per thread and vector (``can_vectorize_up_to`` in
    aten/src/ATen/native/cuda/MemoryAccess.cuh, PyTorch 1.x), so a kernel over 16-bit
    values has half the bytes in flight of one over fp32 values and half this bound. It
    binds on cards with few SMs for their bandwidth at 16 bits (A100, H100: 14-20 GB/s
    per SM at ``eta_memory``), not on GeForce cards (6-11 GB/s per SM): fitted with it,
    the Lambda/DeepLearningExamples rows also give the NCHW transposes
    (``nchw_transpose_passes``) a size near what timm's measured twins give. The serving
    model bounds its weight-streaming kernels alike
    (``core.calc.inference.constants.EngineConstants.per_sm_gb_s``)."""
    elementwise_bytes_per_activation: Annotated[float, Field(gt=0, le=100)]
    """Activation-element passes over DRAM per training step (forward + backward), x bytes."""
    elementwise_alu_flops: Annotated[float, Field(ge=0, le=1000)] = 0.0
    """FP32 CUDA-core operations per activation element per training step in elementwise,
    normalization and softmax kernels (fitted): PyTorch computes these in fp32 (opmath)."""
    amp_activation_bytes: Annotated[float, Field(ge=2, le=4)]
    """Mean bytes per activation element under mixed precision (autocast keeps softmax,
    normalization and reductions in fp32, so between 2 and 4; fitted)."""
    gemm_half_width: Annotated[float, Field(ge=0, le=1e5)] = 0.0
    """d0 of the GEMM-shape factor d / (d + d0): the inner width at which a GEMM reaches
    half the large-GEMM efficiency (fitted)."""
    conv_rel: Fraction = 1.0
    """Tensor-core convolutions relative to large GEMMs (fitted): cuDNN's implicit-GEMM
    kernels gather their operand tiles from the image (im2col on the fly) and run
    few-channel layers, so they reach a lower fraction of the tensor peak."""
    eta_depthwise: Fraction = 1.0
    """Depthwise convolutions' share of the FP32 CUDA-core peak (fitted): with one input
    channel per output there is no reduction for a tensor-core MMA, and their kernels
    (cuDNN's and PyTorch's ``conv_depthwise2d``, the weight gradient a reduction over the
    whole batch and image per channel) run far below the lanes' rate."""
    score_bytes: Annotated[float, Field(ge=0, le=500)] = 0.0
    """DRAM bytes per attention score element per training step (fitted): the unfused
    scale/mask/softmax/dropout chain and its backward over the s x s x heads scores."""
    launch_s_per_layer: Annotated[float, Field(ge=0, le=1e-2)]
    """Host time eager PyTorch spends dispatching one layer's kernels per training step
    (fitted; other stacks scale it, ``stacks.StackPhysics.host_factor``). It is hidden
    while the GPU is busy: ``roofline.GpuStep`` says how much is exposed."""
    forward_host_share: Annotated[float, Field(gt=0, le=1)] = 1.0 / 3.0
    """Share of a training step's host dispatch time that its forward takes (fitted on
    published small-batch inference rows, ``tools/fit/fit_forward_host.py``). The
    forward's kernels are launched module by module from Python (``nn.Module.__call__``,
    the dispatcher); the backward's by the C++ autograd engine with no Python per
    kernel (PyTorch docs, "Autograd mechanics"), so the forward carries more of the
    step's host time than its third of the FLOPs. An inference pass pays this share; a
    full training step one whole unit (``launch_s_per_layer``, fitted on training rows,
    so those do not depend on it); LoRA's backward, without weight gradients, half the
    backward's rest; a recomputed forward this share again."""
    launch_s_per_loop_step: Annotated[float, Field(ge=0, le=1e-1)]
    """Host time per timestep of a Python-stepped recurrence per training step."""
    # --- communication ---
    eta_link: Fraction
    """Achieved fraction of per-direction link bandwidth for NCCL ring all-reduce (fitted)."""
    host_staging_factor: Fraction
    """All-reduce through host memory (no P2P) relative to direct PCIe P2P (fitted)."""
    overlap_fraction: Annotated[float, Field(ge=0, le=1)]
    """Share of backward time that can hide all-reduce (bucketed DDP, fitted)."""
    allreduce_latency_s: Annotated[float, Field(ge=0, le=1e-1)]
    """Per-step fixed synchronisation cost of one multi-GPU step (fitted)."""
    # --- measured, not fitted ---
    eta_host_memory: Fraction = 0.6
    """Share of the host DRAM peak a CPU optimizer step reaches. Assumed, not fitted (no
    calibration row times a CPU optimizer step): the serving model's figure for the CPU
    reading offloaded weights (``InferenceConstants.host_bandwidth_efficiency``)."""
    eta_pcie_h2d: Fraction = 0.88
    """Source: stas00/ml-engineering network/README.md nvbandwidth, 8x H200 on PCIe 5.0 x16,
    host->device 55.43 GB/s = 88% of the 63 GB/s per-direction spec."""
    older_kernels_speed: Annotated[float, Field(gt=0, le=1)] = 1.0
    """Speed of the kernels in NGC framework containers released before 2022 (PyTorch
    1.4-1.10 with cuDNN 7.6-8.2) relative to those of 22.09 and later (PyTorch 1.13 with
    cuDNN 8.6 and newer), the releases the ``pytorch-eager`` stack estimates (measured,
    not fitted). Lambda ran its benchmark twice on the same GPUs, models, precisions and
    batch sizes: in NGC 20.01-21.07 containers (lambdal/deeplearning-benchmark
    ``pytorch/results/*``; its README from aca8d370 to fa013b8e names ``pytorch:20.01-py3``,
    ``20.10-py3`` and ``21.07-py3``) and in 22.09 (``pytorch/results/*_v1``; README at
    04c7c5d2). Over the 41 one-GPU pairs of the bundled calibration file (device time
    only, no gradient exchange) the older run reaches a median 0.9247 of the newer one's
    throughput (quartiles 0.894 and 0.964). ``WorkProfile.older_kernels`` marks the rows
    that ran the older containers; it scales every device kernel's time."""
    nchw_transpose_passes: Annotated[float, Field(ge=0, le=20)] = 4.041
    """DRAM passes x 2 bytes per convolution input/output value per training step that an
    NCHW run spends transposing to and from the NHWC layout of cuDNN's 16-bit tensor-core
    convolutions (MosaicML Composer "Channels Last" method card). Fitted on the
    Lambda/DLE rows together with ``per_sm_gb_s`` (without that bound the fit took it to
    zero). Checked against timm's NCHW/NHWC twins on one RTX 3090 (PyTorch 1.12, AMP, same
    model, batch and software; huggingface/pytorch-image-models results
    benchmark-train-amp-{nchw,nhwc}-pt112-cu113-rtx3090.csv): ResNet-50 826.06 vs 1,218.01
    images/s at batch 512 and VGG16 465.36 vs 546.06 at batch 384 are 0.1995 and 0.1219 s
    more per NCHW step, 6.70 and 5.25 passes over their 21,776,384 and 22,629,376
    convolution values per image at 80 % of the 936 GB/s: the fitted value is 0.60 and
    0.77 of theirs (the model's NCHW/NHWC ratios there: 0.81 and 0.90, measured 0.68 and
    0.85)."""


FITTED = ThroughputConstants(
    eta_tensor_volta_turing=0.5236,
    eta_tensor_ampere_ada=0.549,
    eta_tensor_hopper_blackwell=0.4703,
    eta_simt_fp32=0.8722,
    attention_rel=1.0,
    recurrent_rel=1.0,
    amp_activation_bytes=2.0,
    elementwise_bytes_per_activation=4.692,
    elementwise_alu_flops=27.38,
    gemm_half_width=685.7,
    score_bytes=0.1,
    conv_rel=0.6435,
    eta_depthwise=0.07,
    launch_s_per_layer=0.0003,
    forward_host_share=0.64,
    launch_s_per_loop_step=0.004781,
    eta_link=0.538,
    allreduce_latency_s=0.01758,
    eta_memory=0.8,
    host_staging_factor=0.5,
    overlap_fraction=0.4741,
    per_sm_gb_s=34.1,
    nchw_transpose_passes=4.041,
    older_kernels_speed=0.9247,
)
"""Output of tools/fit/fit_throughput.py on the bundled calibration set (1,673 rows)."""
