"""Count the activation bytes a training forward saves for backward, per sample.

NOT a test and not imported by tests: it needs ``torch`` (not a project dependency).
Run it in a throwaway venv outside the repository, e.g.::

    python -m venv .torch-venv && .torch-venv/bin/pip install torch==2.13.0
    .torch-venv/bin/python benchmarks/count_saved_activations.py [preset-id ...]

Method: each network is written as an ``nn.Module`` from the architecture source named
in its preset's ``sources`` (the same definitions used for ``op_mix``), put in training
mode and run forward once, loss included, on CPU under
``torch.autograd.graph.saved_tensors_hooks``. The pack hook records every saved tensor's
storage (deduplicated by storage pointer; parameters excluded - they are model state)
and its byte size. Running at batch 2 and 3 separates the per-sample bytes from fixed
ones (BatchNorm statistics, autocast weight copies). Dropout is ``aten.native_dropout``
(the CUDA path: 1-byte bool masks), LSTMs are written per step (what cuDNN keeps per
step is of the same size: gates, cell state, hidden input). Counts are fp32; with
``--amp`` the same forward also runs under ``torch.autocast('cpu', torch.float16)`` for
comparison (CPU autocast's op lists differ from CUDA's, see docs/memory-model.md).
Prints one JSON object: preset id -> {fp32_per_sample, fp32_fixed, amp_per_sample}.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 (PyTorch convention)
from torch import nn

Tensor = torch.Tensor


class Drop(nn.Module):
    """Dropout through ``aten.native_dropout`` (bool mask saved, as on CUDA)."""

    def __init__(self, p: float) -> None:
        super().__init__()
        self.p = p

    def forward(self, x: Tensor) -> Tensor:
        if not self.training or self.p == 0:
            return x
        return torch.ops.aten.native_dropout(x, self.p, True)[0]


# ---------- CNNs: He et al. 2015 Table 1 (v1.5 stride on the 3x3, NVIDIA DLE) ----------
class Bottleneck(nn.Module):
    def __init__(self, cin: int, mid: int, stride: int, down: bool) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(cin, mid, 1, bias=False)
        self.b1 = nn.BatchNorm2d(mid)
        self.c2 = nn.Conv2d(mid, mid, 3, stride, 1, bias=False)
        self.b2 = nn.BatchNorm2d(mid)
        self.c3 = nn.Conv2d(mid, mid * 4, 1, bias=False)
        self.b3 = nn.BatchNorm2d(mid * 4)
        self.down = (
            nn.Sequential(nn.Conv2d(cin, mid * 4, 1, stride, bias=False), nn.BatchNorm2d(mid * 4))
            if down
            else None
        )

    def forward(self, x: Tensor) -> Tensor:
        y = F.relu(self.b1(self.c1(x)), inplace=True)
        y = F.relu(self.b2(self.c2(y)), inplace=True)
        y = self.b3(self.c3(y))
        return F.relu(y + (self.down(x) if self.down is not None else x), inplace=True)


def res_layer(cin: int, mid: int, n: int, stride: int) -> nn.Sequential:
    rest = [Bottleneck(mid * 4, mid, 1, False) for _ in range(n - 1)]
    return nn.Sequential(Bottleneck(cin, mid, stride, True), *rest)


class ResNet50(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 64, 7, 2, 3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, 1),
        )
        self.l1 = res_layer(64, 64, 3, 1)
        self.l2 = res_layer(256, 128, 4, 2)
        self.l3 = res_layer(512, 256, 6, 2)
        self.l4 = res_layer(1024, 512, 3, 2)
        self.fc = nn.Linear(2048, 1000)

    def forward(self, x: Tensor) -> Tensor:
        x = self.l4(self.l3(self.l2(self.l1(self.stem(x)))))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class VGG16(nn.Module):
    """Simonyan & Zisserman 2014 config D, classifier dropout 0.5 (torchvision layout)."""

    def __init__(self) -> None:
        super().__init__()
        cfg: list[int | str] = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M"]
        cfg += [512, 512, 512, "M", 512, 512, 512, "M"]
        layers: list[nn.Module] = []
        c = 3
        for v in cfg:
            if v == "M":
                layers.append(nn.MaxPool2d(2, 2))
            else:
                assert isinstance(v, int)
                layers += [nn.Conv2d(c, v, 3, padding=1), nn.ReLU(inplace=True)]
                c = v
        self.f = nn.Sequential(*layers)
        self.cls = nn.Sequential(
            nn.Linear(512 * 49, 4096),
            nn.ReLU(inplace=True),
            Drop(0.5),
            nn.Linear(4096, 4096),
            nn.ReLU(inplace=True),
            Drop(0.5),
            nn.Linear(4096, 1000),
        )

    def forward(self, x: Tensor) -> Tensor:
        return self.cls(torch.flatten(F.adaptive_avg_pool2d(self.f(x), 7), 1))


class SSD300(nn.Module):
    """NVIDIA DLE PyTorch/Detection/SSD src/model.py: ResNet-50 to layer3 (stride 1)."""

    def __init__(self, n_cls: int = 81) -> None:
        super().__init__()
        r = ResNet50()
        r.l3[0].c2.stride = (1, 1)
        r.l3[0].down[0].stride = (1, 1)
        self.feat = nn.Sequential(r.stem, r.l1, r.l2, r.l3)
        outc = [1024, 512, 512, 256, 256, 256]
        mids = [256, 256, 128, 128, 128]
        self.extra = nn.ModuleList()
        for i, (cin, oc, m) in enumerate(zip(outc[:-1], outc[1:], mids, strict=True)):
            pad, stride = (1, 2) if i < 3 else (0, 1)
            self.extra.append(
                nn.Sequential(
                    nn.Conv2d(cin, m, 1, bias=False),
                    nn.BatchNorm2d(m),
                    nn.ReLU(inplace=True),
                    nn.Conv2d(m, oc, 3, padding=pad, stride=stride, bias=False),
                    nn.BatchNorm2d(oc),
                    nn.ReLU(inplace=True),
                )
            )
        nd = [4, 6, 6, 6, 4, 4]
        self.loc = nn.ModuleList(
            nn.Conv2d(c, d * 4, 3, padding=1) for c, d in zip(outc, nd, strict=True)
        )
        self.conf = nn.ModuleList(
            nn.Conv2d(c, d * n_cls, 3, padding=1) for c, d in zip(outc, nd, strict=True)
        )
        self.n_cls = n_cls

    def forward(self, x: Tensor) -> tuple[Tensor, Tensor]:
        x = self.feat(x)
        fs = [x]
        for block in self.extra:
            x = block(x)
            fs.append(x)
        b = x.shape[0]
        loc = torch.cat([h(f).view(b, 4, -1) for h, f in zip(self.loc, fs, strict=True)], 2)
        conf = torch.cat(
            [h(f).view(b, self.n_cls, -1) for h, f in zip(self.conf, fs, strict=True)], 2
        )
        return loc, conf


def ssd_loss(out: tuple[Tensor, Tensor]) -> Tensor:
    """DLE SSD Loss: smooth L1 on boxes + cross entropy over 81 classes for 8732 anchors."""
    loc, conf = out
    target = torch.zeros(conf.shape[0], conf.shape[2], dtype=torch.long)
    return F.smooth_l1_loss(loc, torch.zeros_like(loc)) + F.cross_entropy(conf, target)


# ---------- transformers (BERT post-LN; Transformer-XL relative attention) ----------
class BertLayer(nn.Module):
    def __init__(self, h: int, a: int, p: float = 0.1) -> None:
        super().__init__()
        self.a, self.hd = a, h // a
        self.qkv = nn.Linear(h, 3 * h)
        self.o = nn.Linear(h, h)
        self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)
        self.f1, self.f2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)
        self.drop = Drop(p)

    def forward(self, x: Tensor) -> Tensor:
        b, t, h = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.a, self.hd).permute(2, 0, 3, 1, 4).unbind(0)
        p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.hd), -1)
        y = (self.drop(p) @ v).transpose(1, 2).reshape(b, t, h)
        x = self.ln1(x + self.drop(self.o(y)))
        return self.ln2(x + self.drop(self.f2(F.gelu(self.f1(x)))))


class BertSquad(nn.Module):
    def __init__(self, layers: int, h: int, a: int, vocab: int = 30522) -> None:
        super().__init__()
        self.we, self.pe, self.te = nn.Embedding(vocab, h), nn.Embedding(512, h), nn.Embedding(2, h)
        self.ln, self.drop = nn.LayerNorm(h), Drop(0.1)
        self.blocks = nn.ModuleList(BertLayer(h, a) for _ in range(layers))
        self.qa = nn.Linear(h, 2)

    def forward(self, ids: Tensor) -> Tensor:
        t = ids.shape[1]
        x = self.we(ids) + self.pe(torch.arange(t)) + self.te(torch.zeros_like(ids))
        x = self.drop(self.ln(x))
        for block in self.blocks:
            x = block(x)
        return self.qa(x)


def squad_loss(logits: Tensor) -> Tensor:
    start, end = logits.unbind(-1)
    target = torch.zeros(logits.shape[0], dtype=torch.long)
    return F.cross_entropy(start, target) + F.cross_entropy(end, target)


class RelLayer(nn.Module):
    """DLE mem_transformer.py RelPartialLearnableMultiHeadAttn + PositionwiseFF (post-LN)."""

    def __init__(self, d: int, a: int, dh: int, f: int, p: float = 0.1) -> None:
        super().__init__()
        self.qkv = nn.Linear(d, 3 * a * dh, bias=False)
        self.r = nn.Linear(d, a * dh, bias=False)
        self.o = nn.Linear(a * dh, d, bias=False)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.f1, self.f2 = nn.Linear(d, f), nn.Linear(f, d)
        self.drop, self.a, self.dh = Drop(p), a, dh

    def forward(self, x: Tensor, mem: Tensor, pos: Tensor, rwb: Tensor, rrb: Tensor) -> Tensor:
        b, t, _ = x.shape
        cat = torch.cat([mem, x], 1)
        kl = cat.shape[1]
        q, k, v = self.qkv(cat).view(b, kl, 3, self.a, self.dh).unbind(2)
        q = q[:, -t:]
        r = self.r(pos).view(kl, self.a, self.dh)
        ac = torch.einsum("bias,bjas->baij", q + rwb, k)
        bd = torch.einsum("bias,jas->baij", q + rrb, r)
        # _rel_shift: zero-pad one column, view, drop the first row
        pad = torch.cat([bd.new_zeros(b, self.a, t, 1), bd], 3).view(b, self.a, kl + 1, t)
        bd = pad[:, :, 1:].reshape(b, self.a, t, kl)
        mask = torch.ones(t, kl, dtype=torch.bool).triu(1 + kl - t)
        score = ((ac + bd) * (1 / math.sqrt(self.dh))).masked_fill(mask, -65000.0)
        prob = torch.softmax(score.float(), -1).type_as(score)
        y = torch.einsum("baij,bjas->bias", prob, v).reshape(b, t, -1)
        x = self.ln1(x + self.drop(self.o(y)))
        return self.ln2(x + self.drop(self.f2(self.drop(F.relu(self.f1(x))))))


class TransfoXL(nn.Module):
    """DLE mem_transformer.py; adaptive softmax head cluster (20000 + 3 cluster logits) for
    every token; tail clusters are data-dependent and not counted."""

    def __init__(self, layers: int, d: int, a: int, dh: int, f: int, div_val: int) -> None:
        super().__init__()
        de = d // div_val if div_val > 1 else d
        self.emb = nn.Embedding(20000, d)
        self.head = nn.Linear(d, 20003)
        self.blocks = nn.ModuleList(RelLayer(d, a, dh, f) for _ in range(layers))
        self.rwb = nn.Parameter(torch.zeros(a, dh))
        self.rrb = nn.Parameter(torch.zeros(a, dh))
        self.drop, self.d, self.de = Drop(0.1), d, de

    def forward(self, ids: Tensor, mem_len: int) -> Tensor:
        b, t = ids.shape
        x = self.drop(self.emb(ids) * math.sqrt(self.d))
        pos = self.drop(torch.randn(t + mem_len, self.d))
        for block in self.blocks:
            x = block(x, torch.zeros(b, mem_len, self.d), pos, self.rwb, self.rrb)
        return self.head(self.drop(x))


def lm_loss(logits: Tensor) -> Tensor:
    target = torch.zeros(logits.shape[:-1], dtype=torch.long)
    return F.nll_loss(F.log_softmax(logits.float(), -1).flatten(0, 1), target.flatten())


# ---------- recurrent nets (LSTM written per step) ----------
class LSTMLayer(nn.Module):
    def __init__(self, i: int, h: int) -> None:
        super().__init__()
        self.wi, self.wh, self.h = nn.Linear(i, 4 * h), nn.Linear(h, 4 * h), h

    def step(self, xp: Tensor, hc: tuple[Tensor, Tensor]) -> tuple[Tensor, Tensor]:
        hprev, c = hc
        i, f, g, o = (xp + self.wh(hprev)).chunk(4, -1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c

    def forward(self, x: Tensor, reverse: bool = False) -> Tensor:
        b, t, _ = x.shape
        xp = self.wi(x)
        hc = (x.new_zeros(b, self.h), x.new_zeros(b, self.h))
        outs = []
        for j in range(t - 1, -1, -1) if reverse else range(t):
            hc = self.step(xp[:, j], hc)
            outs.append(hc[0])
        if reverse:
            outs.reverse()
        return torch.stack(outs, 1)


class GNMT(nn.Module):
    """DLE PyTorch/Translation/GNMT seq2seq/models (hidden 1024, 4+4 layers, dropout 0.2)."""

    def __init__(self, vocab: int = 32320, h: int = 1024) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab, h)
        self.e0f, self.e0b = LSTMLayer(h, h), LSTMLayer(h, h)
        self.e1, self.e2, self.e3 = LSTMLayer(2 * h, h), LSTMLayer(h, h), LSTMLayer(h, h)
        self.d0 = LSTMLayer(h, h)
        self.lq, self.lk = nn.Linear(h, h, bias=False), nn.Linear(h, h, bias=False)
        self.att_v = nn.Parameter(torch.randn(h))
        self.norm_bias = nn.Parameter(torch.zeros(h))
        self.d1, self.d2, self.d3 = (LSTMLayer(2 * h, h) for _ in range(3))
        self.cls = nn.Linear(h, vocab)
        self.drop = Drop(0.2)

    def forward(self, src: Tensor, tgt: Tensor) -> Tensor:
        dr = self.drop
        x = dr(self.emb(src))
        x = torch.cat([self.e0f(x), self.e0b(x, True)], -1)
        x = self.e1(dr(x))
        x = x + self.e2(dr(x))
        enc = x + self.e3(dr(x))
        q = self.d0(dr(self.emb(tgt)))
        keys, qq = self.lk(enc), self.lq(q)
        v = self.att_v / self.att_v.norm()
        sc = torch.tanh(qq.unsqueeze(2) + keys.unsqueeze(1) + self.norm_bias) @ v
        ctx = torch.softmax(sc, -1) @ enc
        z = self.d1(dr(torch.cat([q, ctx], -1)))
        z2 = self.d2(dr(torch.cat([z, ctx], -1))) + z
        z3 = self.d3(dr(torch.cat([z2, ctx], -1))) + z2
        return self.cls(dr(z3))


class Tacotron2(nn.Module):
    """DLE PyTorch/SpeechSynthesis/Tacotron2 defaults; teacher-forced training forward with
    its dropouts (encoder/postnet convs 0.5, prenet 0.5, attention/decoder RNN 0.1)."""

    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(148, 512)
        self.convs = nn.ModuleList(
            nn.Sequential(nn.Conv1d(512, 512, 5, padding=2), nn.BatchNorm1d(512)) for _ in range(3)
        )
        self.bf, self.bb = LSTMLayer(512, 256), LSTMLayer(512, 256)
        self.pre1, self.pre2 = nn.Linear(80, 256, bias=False), nn.Linear(256, 256, bias=False)
        self.arnn = LSTMLayer(256 + 512, 1024)
        self.q, self.mem = nn.Linear(1024, 128, bias=False), nn.Linear(512, 128, bias=False)
        self.v = nn.Linear(128, 1, bias=False)
        self.locconv = nn.Conv1d(2, 32, 31, padding=15, bias=False)
        self.locdense = nn.Linear(32, 128, bias=False)
        self.drnn = LSTMLayer(1024 + 512, 1024)
        self.proj, self.gate = nn.Linear(1024 + 512, 80), nn.Linear(1024 + 512, 1)
        ch = [80, 512, 512, 512, 512, 80]
        self.post = nn.ModuleList(
            nn.Sequential(nn.Conv1d(ch[i], ch[i + 1], 5, padding=2), nn.BatchNorm1d(ch[i + 1]))
            for i in range(5)
        )
        self.d5, self.d1 = Drop(0.5), Drop(0.1)

    def forward(self, text: Tensor, mels: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        x = self.emb(text).transpose(1, 2)
        for conv in self.convs:
            x = self.d5(F.relu(conv(x)))
        x = x.transpose(1, 2)
        enc = torch.cat([self.bf(x), self.bb(x, True)], -1)
        b, t_in, _ = enc.shape
        frames = mels.shape[1]
        pm = self.mem(enc)
        pre = self.d5(F.relu(self.pre2(self.d5(F.relu(self.pre1(mels))))))
        ah = (enc.new_zeros(b, 1024), enc.new_zeros(b, 1024))
        dh = (enc.new_zeros(b, 1024), enc.new_zeros(b, 1024))
        ctx, aw, awc = enc.new_zeros(b, 512), enc.new_zeros(b, t_in), enc.new_zeros(b, t_in)
        outs, gates = [], []
        for t in range(frames):
            ah = self.arnn.step(self.arnn.wi(torch.cat([pre[:, t], ctx], -1)), ah)
            ah = (self.d1(ah[0]), ah[1])
            loc = self.locdense(self.locconv(torch.stack([aw, awc], 1)).transpose(1, 2))
            e = self.v(torch.tanh(self.q(ah[0]).unsqueeze(1) + pm + loc)).squeeze(-1)
            aw = torch.softmax(e, -1)
            awc = awc + aw
            ctx = torch.bmm(aw.unsqueeze(1), enc).squeeze(1)
            dh = self.drnn.step(self.drnn.wi(torch.cat([ah[0], ctx], -1)), dh)
            dh = (self.d1(dh[0]), dh[1])
            dc = torch.cat([dh[0], ctx], -1)
            outs.append(self.proj(dc))
            gates.append(self.gate(dc))
        y = torch.stack(outs, 2)
        z = y
        for i, conv in enumerate(self.post):
            z = self.d5(torch.tanh(conv(z)) if i < 4 else conv(z))
        return y, y + z, torch.cat(gates, 1)


def tacotron_loss(out: tuple[Tensor, Tensor, Tensor]) -> Tensor:
    y, post, gate = out
    return (
        F.mse_loss(y, torch.zeros_like(y))
        + F.mse_loss(post, torch.zeros_like(post))
        + F.binary_cross_entropy_with_logits(gate, torch.zeros_like(gate))
    )


class WN(nn.Module):
    def __init__(self, cin: int, mel: int, ch: int, layers: int = 8) -> None:
        super().__init__()
        self.start, self.end = nn.Conv1d(cin, ch, 1), nn.Conv1d(ch, 2 * cin, 1)
        self.cond = nn.Conv1d(mel, 2 * ch * layers, 1)
        self.ins = nn.ModuleList(
            nn.Conv1d(ch, 2 * ch, 3, dilation=2**i, padding=2**i) for i in range(layers)
        )
        self.rs = nn.ModuleList(
            nn.Conv1d(ch, 2 * ch if i < layers - 1 else ch, 1) for i in range(layers)
        )
        self.ch, self.layers = ch, layers

    def forward(self, a: Tensor, spect: Tensor) -> Tensor:
        a = self.start(a)
        out: Tensor | int = 0
        cond = self.cond(spect)
        c = self.ch
        for i in range(self.layers):
            z = self.ins[i](a) + cond[:, i * 2 * c : (i + 1) * 2 * c]
            r = self.rs[i](torch.tanh(z[:, :c]) * torch.sigmoid(z[:, c:]))
            if i < self.layers - 1:
                a = a + r[:, :c]
                out = out + r[:, c:]
            else:
                out = out + r
        assert isinstance(out, Tensor)
        return self.end(out)


class WaveGlow(nn.Module):
    """DLE waveglow/model.py defaults: 12 flows, n_group 8, early output 2 every 4 flows,
    WN 8 layers x 512 channels, upsampling ConvTranspose1d(80, 80, 1024, stride 256)."""

    def __init__(self, ch: int = 512) -> None:
        super().__init__()
        self.up = nn.ConvTranspose1d(80, 80, 1024, stride=256)
        self.convinv, self.wn = nn.ModuleList(), nn.ModuleList()
        rem = 8
        for k in range(12):
            if k % 4 == 0 and k > 0:
                rem -= 2
            self.convinv.append(nn.Conv1d(rem, rem, 1, bias=False))
            self.wn.append(WN(rem // 2, 80 * 8, ch))

    def forward(self, spect: Tensor, audio: Tensor) -> tuple[Tensor, list[Tensor]]:
        n_samples = audio.shape[1]
        spect = self.up(spect)[:, :, :n_samples]
        spect = spect.unfold(2, 8, 8).permute(0, 2, 1, 3).contiguous()
        spect = spect.view(spect.shape[0], -1, n_samples // 8)
        audio = audio.unfold(1, 8, 8).permute(0, 2, 1)
        outs, log_s = [], []
        for k in range(12):
            if k % 4 == 0 and k > 0:
                outs.append(audio[:, :2])
                audio = audio[:, 2:]
            audio = self.convinv[k](audio)
            n = audio.shape[1] // 2
            o = self.wn[k](audio[:, :n], spect)
            ls, t = o[:, n:], o[:, :n]
            log_s.append(ls)
            audio = torch.cat([audio[:, :n], torch.exp(ls) * audio[:, n:] + t], 1)
        outs.append(audio)
        return torch.cat(outs, 1), log_s


def waveglow_loss(out: tuple[Tensor, list[Tensor]]) -> Tensor:
    z, log_s = out
    return (z * z).sum() / 2 - sum(s.sum() for s in log_s)


def _ids(b: int, t: int, vocab: int = 1000) -> Tensor:
    return torch.randint(0, vocab, (b, t))


Job = tuple[Callable[[], nn.Module], Callable[[int], tuple[Any, ...]], Callable[[Any], Tensor]]


def _ce(logits: Tensor) -> Tensor:
    return F.cross_entropy(logits, torch.zeros(logits.shape[0], dtype=torch.long))


JOBS: dict[str, Job] = {
    "resnet50-v1.5": (ResNet50, lambda b: (torch.randn(b, 3, 224, 224),), _ce),
    "vgg16": (VGG16, lambda b: (torch.randn(b, 3, 224, 224),), _ce),
    "ssd300-rn50": (SSD300, lambda b: (torch.randn(b, 3, 300, 300),), ssd_loss),
    "bert-base-squad": (lambda: BertSquad(12, 768, 12), lambda b: (_ids(b, 384),), squad_loss),
    "bert-large-squad": (lambda: BertSquad(24, 1024, 16), lambda b: (_ids(b, 384),), squad_loss),
    "transformer-xl-base": (
        lambda: TransfoXL(16, 512, 8, 64, 2048, 1),
        lambda b: (_ids(b, 192), 192),
        lm_loss,
    ),
    "transformer-xl-large": (
        lambda: TransfoXL(18, 1024, 16, 64, 4096, 4),
        lambda b: (_ids(b, 384), 384),
        lm_loss,
    ),
    "gnmt-v2": (GNMT, lambda b: (_ids(b, 50), _ids(b, 50)), lm_loss),
    "tacotron2": (
        Tacotron2,
        lambda b: (_ids(b, 100, 148), torch.randn(b, 566, 80)),
        tacotron_loss,
    ),
    "waveglow": (
        WaveGlow,
        lambda b: (torch.randn(b, 80, 32), torch.randn(b, 8000)),
        waveglow_loss,
    ),
}


def saved_bytes(model: nn.Module, job: Job, batch: int, amp: bool) -> int:
    """Bytes of distinct storages saved for backward by one training forward + loss."""
    torch.manual_seed(0)
    inputs = job[1](batch)
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}

    def pack(t: Tensor) -> Tensor:
        storage = t.untyped_storage()
        ptr = storage.data_ptr()
        if ptr and ptr not in params:
            seen[ptr] = max(seen.get(ptr, 0), storage.nbytes())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast("cpu", dtype=torch.float16, enabled=amp):
            out = model(*inputs)
        loss = job[2](out)
    del loss, out
    return sum(seen.values())


def main(ids: list[str]) -> None:
    torch.set_num_threads(1)
    result = {}
    for preset_id in ids or list(JOBS):
        job = JOBS[preset_id]
        model = job[0]().train()
        # batches 2 and 3: training-mode BatchNorm rejects one value per channel (SSD 1x1 maps)
        two, three = (saved_bytes(model, job, b, False) for b in (2, 3))
        amp_two, amp_three = (saved_bytes(model, job, b, True) for b in (2, 3))
        result[preset_id] = {
            "fp32_per_sample": three - two,
            "fp32_fixed": 3 * two - 2 * three,
            "amp_per_sample": amp_three - amp_two,
        }
        print(preset_id, result[preset_id], file=sys.stderr, flush=True)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
