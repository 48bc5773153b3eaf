"""Pure calculations, grouped by concern, with one entry point on top.

- ``memory``: per-GPU VRAM, largest batch, ranked fixes, host RAM
- ``performance``: step time as a roofline, multi-GPU scaling, host I/O
- ``platform``: power, PCIe, physical fit, compatibility and host checks
- ``cost``: prices of the parts, energy, TCO, cloud break-even
- ``suggest``: the whole-catalog search for the Pareto-best builds
- ``analysis.analyze``: all of it for one build (the one result every view renders)
- ``fixes.apply_fix``: a fix's typed change applied to the build and the workload
"""

from core.calc.analysis import analyze
from core.calc.fixes import apply_fix

__all__ = ["analyze", "apply_fix"]
