"""LoRA adapters are counted once, the same for the memory and the throughput model.

Mixtral 8x7B (config: hidden 4096, 32 layers, 32 query and 8 key/value heads of 128,
FFN 14336, 8 experts), QLoRA's default adapters (rank 64 on q, k, v, o, gate, up, down;
Dettmers et al. 2023) — worked out by hand, r × (d_in + d_out) per adapted matrix:
  q, o:  64 × (4096 + 4096) = 524,288 each
  k, v:  64 × (4096 + 1024) = 327,680 each
  gate, up, down in each of 8 experts: 64 × (4096 + 14336) = 1,179,648 each → × 24
  per layer 2 × 524,288 + 2 × 327,680 + 24 × 1,179,648 = 30,015,488; × 32 layers.
"""

from core.calc.memory.components import model_state_bytes
from core.calc.performance.profile import profile_from_workload
from core.workloads import find_preset, make_workload

MIXTRAL_QLORA_ADAPTERS = 32 * (2 * 524_288 + 2 * 327_680 + 24 * 1_179_648)


def test_mixtral_qlora_adapters_by_hand_in_both_models() -> None:
    workload = make_workload(find_preset("mixtral-8x7b"), task="qlora", precision="bf16")
    assert workload.trainable_params == MIXTRAL_QLORA_ADAPTERS == 960_495_616
    assert profile_from_workload(workload).params_trainable == MIXTRAL_QLORA_ADAPTERS
    # memory: fp32 adapter gradients, 4 bytes per adapter parameter (one GPU)
    assert model_state_bytes(workload, 1).gradients == 4.0 * MIXTRAL_QLORA_ADAPTERS
