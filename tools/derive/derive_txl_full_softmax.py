"""Derive the Transformer-XL presets as Lambda's benchmark runs them (full softmax).

Lambda's deeplearning-benchmark launches NVIDIA DLE's Transformer-XL ``train.py``
without ``--adaptive`` and without ``--config_file`` (pytorch/scripts/benchmark_pytorch.sh,
config_v0/ and config_v1/config_pytorch_*.sh). In DLE ``train.py`` the adaptive-softmax
cutoffs are set only under ``--adaptive`` and ``--div_val`` defaults to 1, so every token
gets the full softmax over the 267,735-word WikiText-103 vocabulary, with d_embed =
d_model and tied input/output embeddings. Large runs use ``--tgt_len 256 --mem_len 256``.

The DLE-config presets (adaptive softmax, head cluster of 20,000 + 3 logits counted for
every token) are the starting point; this script swaps the head cluster for the full
vocabulary and rescales the large model's attention and score tensors to 512 keys:

- matmul: + 2 d (V - 20003) per token (logit GEMM; same counting convention, forward)
- activations: + (V - 20003) per token (the logit tensor, one output like the head's)
- saved bytes (fp32): + 4 (V - 20003) per token (log_softmax keeps its output)
- attention (large): x 512 / 768 keys per token; score-sized activations likewise, with
  the per-layer split into hidden-sized and score-sized elements solved from the two
  counted DLE presets (hidden-sized elements per unit of d_model and score tensors
  per layer are the same in both models)
- params: layers of the counted preset + V d (tied embedding) + V (output bias)

Run:  .venv/bin/python benchmarks/derive_txl_full_softmax.py   (prints JSON)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.workloads import find_preset

VOCAB = 267_735
HEAD = 20_003  # head cluster of the adaptive softmax: 20,000 words + 3 cluster logits


def layer_params(d: int, heads: int, d_head: int, ffn: int) -> int:
    """One DLE RelPartialLearnableDecoderLayer: qkv, r, o (no bias), 2 LayerNorms, FF."""
    att = heads * d_head
    return d * 3 * att + d * att + att * d + 2 * d + (d * ffn + ffn) + (ffn * d + d) + 2 * d


def derive() -> dict[str, Any]:
    """The derived numbers of both full-softmax presets (and the solved split)."""
    base = find_preset("transformer-xl-base").architecture
    large = find_preset("transformer-xl-large").architecture
    assert base.default_seq_len == 192 and large.default_seq_len == 384
    per_tok = {
        name: (a.activation_elements_per_sample or 0) / (a.default_seq_len or 1) - HEAD
        for name, a in (("base", base), ("large", large))
    }
    # per layer: n * d + s * heads * keys, keys = tgt + mem = 2 * seq
    b_layer = per_tok["base"] / 16
    l_layer = per_tok["large"] / 18
    s = (l_layer - 2 * b_layer) / (16 * 768 - 2 * 8 * 384)
    n = (b_layer - s * 8 * 384) / 512
    out: dict[str, Any] = {"score_tensors_per_layer": s, "hidden_elements_per_d_model": n}

    for name, arch, seq, layers, d, heads, ffn in (
        ("base", base, 192, 16, 512, 8, 2048),
        ("large", large, 256, 18, 1024, 16, 4096),
    ):
        mix = arch.op_mix
        assert mix is not None
        old_seq = arch.default_seq_len or seq
        mm_tok = mix.matmul_conv_flops / old_seq - 2 * d * HEAD + 2 * d * VOCAB
        att_tok = mix.attention_flops / old_seq * (2 * seq) / (2 * old_seq)
        act_tok = layers * (n * d + s * heads * 2 * seq) + VOCAB
        body = layers * layer_params(d, heads, 64, ffn) + 2 * heads * 64
        entry: dict[str, float] = {
            "matmul_conv_flops": round(mm_tok * seq),
            "attention_flops": round(att_tok * seq),
            "activation_elements_per_sample": round(act_tok * seq),
            "params_total": body + VOCAB * d + VOCAB,
        }
        entry["forward_flops_per_sample"] = entry["matmul_conv_flops"] + entry["attention_flops"]
        if arch.saved_activation_bytes_per_sample_fp32 and seq == old_seq:
            entry["saved_activation_bytes_per_sample_fp32"] = (
                arch.saved_activation_bytes_per_sample_fp32 + 4 * (VOCAB - HEAD) * seq
            )
        out[name] = entry
    return out


def main() -> int:
    print(json.dumps(derive(), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
