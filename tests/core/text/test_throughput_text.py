"""The named bottleneck in a user's words."""

from core.models.throughput import Bottleneck
from core.text.throughput import bottleneck_text


def test_a_pace_setting_host_stage_reads_as_a_wait_not_a_share() -> None:
    paced = Bottleneck(code="data_loading", share_of_step=0.24, sets_pace=True)
    assert (
        bottleneck_text(paced) == "CPU data loading sets the pace: the GPUs wait 24% of each step"
    )


def test_a_gpu_class_reads_as_its_share_of_the_step() -> None:
    share = Bottleneck(code="memory_bound", share_of_step=0.38)
    assert bottleneck_text(share) == (
        "memory bandwidth (elementwise and normalization): 38% of step time"
    )


def test_the_exchange_names_what_crosses_the_link() -> None:
    def text(exchange: str) -> str:
        b = Bottleneck.model_validate(
            {
                "code": "communication",
                "share_of_step": 0.54,
                "link": "pcie_host",
                "pcie_gen": 4,
                "lanes": 16,
                "exchange": exchange,
            }
        )
        return bottleneck_text(b)

    where = "over PCIe 4.0 x16 through host memory: 54% of step time"
    assert text("gradients") == f"gradient all-reduce {where}"
    assert text("sharded") == (f"ZeRO-3/FSDP weight all-gather and gradient reduce-scatter {where}")
    assert text("model_parallel") == f"tensor/pipeline-parallel activation exchange {where}"
