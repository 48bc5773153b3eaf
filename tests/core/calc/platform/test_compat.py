"""Compatibility: socket, memory type, DIMM kind and count, capacity, ECC, power cables."""

from __future__ import annotations

from core.calc.platform.compat import compat_checks, connectors_ok, power_connector_check
from tests.core import check_parts as parts


def _sev(build: object) -> dict[str, str]:
    return {c.id: c.severity for c in compat_checks(build)}  # type: ignore[arg-type]


def test_clean_build_passes() -> None:
    result = _sev(parts.build())
    for cid in (
        "compat.socket",
        "compat.memory_type",
        "compat.dimm_type",
        "compat.dimm_count",
        "compat.memory_capacity",
    ):
        assert result[cid] == "pass"


def test_socket_mismatch() -> None:
    assert _sev(parts.build(cpu=parts.tr_pro()))["compat.socket"] == "fail"


def test_memory_type_and_dimm_kind() -> None:
    ddr4 = parts.memory(memory_type="DDR4", speed_mt_s=3200)
    assert _sev(parts.build(memory=ddr4))["compat.memory_type"] == "fail"
    rdimm = parts.memory(dimm_type="RDIMM", ecc=True)
    assert _sev(parts.build(memory=rdimm))["compat.dimm_type"] == "fail"


def test_dimm_count_and_capacity() -> None:
    assert _sev(parts.build(memory_kits=3))["compat.dimm_count"] == "fail"  # 6 DIMMs > 4 slots
    big = parts.memory(modules=4, module_gib=64)  # 256 GB > 192 GB
    assert _sev(parts.build(memory=big))["compat.memory_capacity"] == "fail"
    assert (
        _sev(
            parts.build(
                cpu=parts.cpu(max_memory_gib=None), motherboard=parts.am5_board(max_memory_gib=None)
            )
        )["compat.memory_capacity"]
        == "info"
    )


def test_ecc() -> None:
    ecc_udimm = parts.memory(ecc=True)
    assert _sev(parts.build(memory=ecc_udimm))["compat.ecc"] == "warn"  # CPU ecc False
    assert _sev(parts.two_3090_nvlink())["compat.ecc"] == "pass"


def test_power_connectors() -> None:
    native = power_connector_check(parts.build(), None)
    assert native.severity == "pass"
    # No 16-pin lead: one adapter of ⌈450 / 150⌉ = 3 eight-pin cables.
    four = parts.build(psu=parts.psu(connectors={"pcie_8pin": 4, "12vhpwr": 0}))
    adapter = power_connector_check(four, None)
    assert adapter.severity == "warn" and adapter.numbers["need_8pin"] == 3
    two = parts.build(psu=parts.psu(connectors={"pcie_8pin": 2, "12vhpwr": 0}))
    assert power_connector_check(two, None).severity == "fail"
    # A cable type the source does not list is unknown, never zero.
    unlisted16 = parts.build(psu=parts.psu(connectors={"pcie_8pin": 2}))
    assert power_connector_check(unlisted16, None).reason == "psu_connectors_unknown"
    eight_pin_card = parts.gpu(power_connectors={"pcie_8pin": 2})
    unlisted8 = parts.build(gpu=eight_pin_card, psu=parts.psu(connectors={"12v_2x6": 2}))
    assert power_connector_check(unlisted8, None).reason == "psu_connectors_unknown"
    atx2 = parts.psu(atx_version="2.x", connectors={"pcie_8pin": 2})
    assert power_connector_check(parts.build(psu=atx2), None).severity == "fail"  # 16-pin: 0
    unknown = parts.build(psu=parts.psu(connectors=None))
    assert power_connector_check(unknown, None).reason == "psu_connectors_unknown"


def test_connectors_ok_natively_refuses_the_adapter_that_the_check_warns_about() -> None:
    """Suggest screens PSUs with ``native=True``: a build it lists never needs the 8-pin to
    16-pin adapter that the connector check calls an advisory."""
    psu = parts.psu(connectors={"pcie_8pin": 4, "12vhpwr": 0})
    build = parts.build(psu=psu)
    assert power_connector_check(build, None).reason == "connectors_via_adapter"
    assert connectors_ok(build, psu, 1) is True
    assert connectors_ok(build, psu, 1, native=True) is False
    native = parts.build()
    assert connectors_ok(native, native.psu, 1, native=True) is True
