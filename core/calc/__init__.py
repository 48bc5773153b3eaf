"""Pure calculations, grouped by concern, with one entry point on top.

- ``memory``: per-GPU VRAM, largest batch, ranked fixes, host RAM
- ``performance``: step time as a roofline, multi-GPU scaling, host I/O
- ``platform``: power, PCIe, physical fit, compatibility and host checks
- ``cost``: prices of the parts, energy, TCO, cloud break-even
- ``suggest``: the whole-catalog search for the Pareto-best builds
- ``analysis.analyze``: all of it for one build (the one result every view renders)
- ``fixes.apply_fix``: a fix's typed change applied to the build and the workload

The two entry points load on first use: a command that needs one model (``rigforge
predict`` on GPUs it is given) does not import every check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.calc.analysis import analyze
    from core.calc.fixes import apply_fix

__all__ = ["analyze", "apply_fix"]


def __getattr__(name: str) -> Any:
    if name == "analyze":
        from core.calc.analysis import analyze

        return analyze
    if name == "apply_fix":
        from core.calc.fixes import apply_fix

        return apply_fix
    raise AttributeError(f"module 'core.calc' has no attribute {name!r}")
