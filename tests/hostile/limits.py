"""Each hostile case must end in under 5 s and under 500 MB: measured, not assumed."""

from __future__ import annotations

import contextlib
import gc
import signal
import sys
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass

SECONDS = 5.0
MEGABYTES = 500


class TookTooLong(Exception):
    """Raised by the alarm inside a case that ran past ``SECONDS``."""


@dataclass
class Usage:
    seconds: float = 0.0
    peak_mb: float = 0.0


def _flush_deferred_deletes() -> None:
    """Destroy the widgets earlier tests' windows left for deletion now, not inside the
    measured block (when Qt is in use at all)."""
    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()


@contextlib.contextmanager
def bounded(seconds: float = SECONDS, megabytes: float = MEGABYTES) -> Iterator[Usage]:
    """Run the block under an alarm (a hang fails the test instead of hanging the suite)
    and measure its time and peak Python memory; assert both are within the limits."""
    usage = Usage()

    def alarm(_signum: int, _frame: object) -> None:
        raise TookTooLong(f"still running after {seconds:g} s")

    # The limit is on the code under test, not on the collector scanning everything the
    # test session has built up so far: freeze that heap for the duration of the block.
    _flush_deferred_deletes()
    gc.collect()
    gc.freeze()
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds * 2)  # fail, never hang, even when slow
    tracemalloc.start()
    started = time.perf_counter()
    try:
        yield usage
    finally:
        usage.seconds = time.perf_counter() - started
        usage.peak_mb = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.unfreeze()
    assert usage.seconds < seconds, f"took {usage.seconds:.1f} s"
    assert usage.peak_mb < megabytes, f"peaked at {usage.peak_mb:.0f} MB"
