"""Per-op selective activation checkpointing: what a transformer block keeps and recomputes.

torchtitan's default recipe for Llama 3 (``train_configs/llama3_8b.toml``:
``[activation_checkpoint] mode = 'selective'``, ``selective_ac_option = 'op'``) wraps
each block in a selective-checkpoint context whose policy keeps the outputs of the
matrix products and of the fused attention kernel, "except every second mm", and
recomputes everything else in the backward (torchtitan ``parallelize_llama.py``,
``_apply_ac_to_transformer_block``: ``_save_list`` = ``aten.mm``, SDPA flash and
memory-efficient attention, ``reduce_scatter``, ``max``; the mm counter restarts in
every block). A Llama block runs its products in the order wq, wk, wv, wo, w1, w3, w2
(torchtitan ``models/llama/model.py``: ``self.wq(x), self.wk(x), self.wv(x)`` and
``self.w2(F.silu(self.w1(x)) * self.w3(x))``), so it keeps wq, wv, w1 and w2 and
recomputes wk, wo and w3 with every elementwise op (norms, RoPE, SiLU, products).

Workloads choose this with ``checkpointing: op``.
"""

from __future__ import annotations

from typing import NamedTuple

from core.models.workload import Architecture


class Product(NamedTuple):
    outputs: float
    """Values the product writes per token."""
    flops: float
    """Its FLOPs per token (2 x inputs x outputs)."""
    sharded: bool
    """Split over the tensor-parallel group (column-parallel) rather than replicated."""


def block_products(arch: Architecture) -> list[Product]:
    """A block's matrix products in the order a Llama-style block runs them."""
    h = float(arch.hidden_size or 0)
    heads = float(arch.heads or 0)
    hd = float(arch.resolved_head_dim or 0)
    kv = float(arch.resolved_kv_heads or 0)
    f = float(arch.ffn_hidden_size or 4 * h) * float(arch.experts_per_token or 1)
    q, k = heads * hd, kv * hd
    products = [
        Product(q, 2.0 * h * q, True),
        Product(k, 2.0 * h * k, True),
        Product(k, 2.0 * h * k, True),
        Product(h, 2.0 * q * h, False),
    ]
    if arch.mlp == "swiglu":
        products += [
            Product(f, 2.0 * h * f, True),
            Product(f, 2.0 * h * f, True),
            Product(h, 2.0 * f * h, False),
        ]
    else:
        products += [Product(f, 2.0 * h * f, True), Product(h, 2.0 * f * h, False)]
    return products


def saved_values_per_token(arch: Architecture, tp: int = 1) -> float:
    """Values one block keeps per token under per-op checkpointing: its input (the
    checkpoint), the attention kernel's output and every other product's output (the
    first, third, ...), sharded outputs divided over ``tp``."""
    h = float(arch.hidden_size or 0)
    attention = float(arch.heads or 0) * float(arch.resolved_head_dim or 0)
    kept = [p for i, p in enumerate(block_products(arch)) if i % 2 == 0]
    sharded = attention + sum(p.outputs for p in kept if p.sharded)
    replicated = h + sum(p.outputs for p in kept if not p.sharded)
    return replicated + sharded / tp


def recomputed_matmul_share(arch: Architecture) -> float:
    """Share of a block's matrix-product FLOPs that the backward runs again (every
    second product: wk, wo and w3 of a Llama block, 37 % of Llama 3 8B's)."""
    products = block_products(arch)
    total = sum(p.flops for p in products)
    again = sum(p.flops for i, p in enumerate(products) if i % 2 == 1)
    return again / total if total > 0 else 0.5
