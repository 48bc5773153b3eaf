"""Throughput vs total cost, one labelled point per build, with the Pareto front drawn."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QWidget

from gui.charts.base import SERIES_COLOURS, THEMES, BaseChart
from gui.views import plain


@dataclass(frozen=True)
class ScatterPoint:
    label: str
    cost_usd: float
    throughput: float
    complete: bool = True
    """False when some part has no price: the cost is a lower bound (hollow marker)."""
    colour: int | None = None
    """Series colour index (the build's place in the comparison, as in the other charts);
    ``None``: the point's own place."""


LABEL_ANCHORS = (
    (0.0, 1.0),
    (0.0, 0.0),
    (1.0, 1.0),
    (1.0, 0.0),
    (0.5, 1.2),
    (0.5, -0.2),
    (0.0, 0.5),
    (1.0, 0.5),
)
"""Where a label may sit, as TextItem anchors: above right, below right, above left, below
left, centred above, centred below, right of and left of its point."""


class CompareScatterChart(BaseChart):
    def __init__(self, title: str = "Throughput vs total cost", parent: QWidget | None = None):
        super().__init__(title, parent)
        plot = self.getPlotItem()
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", "parts cost (USD)")
        self.front_curve = plot.plot(
            [], [], pen=pg.mkPen(SERIES_COLOURS[4], width=2, style=Qt.PenStyle.DashLine)
        )
        self.points = pg.ScatterPlotItem(size=12, pxMode=True)
        plot.addItem(self.points)
        self.labels: list[pg.TextItem] = []
        self.shown_points: tuple[ScatterPoint, ...] = ()
        self.front: tuple[int, ...] = ()
        # the plot area changes with the widget and when the axes widen for their tick
        # labels on a paint: the labels are placed again each time
        plot.getViewBox().sigResized.connect(self._arrange_labels)
        self.setToolTip(
            plain.tip(
                "Each build's total throughput against its parts cost. The dashed line joins the "
                "Pareto front: builds no other build beats on both (cheaper or equal and faster). "
                "A hollow marker's cost is a lower bound: some of its parts have no price."
            )
        )

    def set_points(
        self,
        points: tuple[ScatterPoint, ...],
        front: tuple[int, ...],
        unit: str,
        highlight: int | None = None,
        currency: str = "USD",
    ) -> None:
        """``points`` carry their cost in ``currency`` (the caller converts)."""
        self.shown_points, self.front = points, front
        self.getPlotItem().setLabel("bottom", f"parts cost ({currency})")
        spots = []
        for i, p in enumerate(points):
            index = i if p.colour is None else p.colour
            colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
            spots.append(
                {
                    "pos": (p.cost_usd, p.throughput),
                    "brush": pg.mkBrush(colour if p.complete else None),
                    "pen": pg.mkPen(colour, width=3 if i == highlight else 1.5),
                    "size": 16 if i == highlight else 12,
                    "symbol": "o" if i in front else "s",
                    "data": i,
                }
            )
        self.points.setData(spots)
        ordered = sorted(front, key=lambda i: points[i].cost_usd)
        self.front_curve.setData(
            [points[i].cost_usd for i in ordered], [points[i].throughput for i in ordered]
        )
        self.getPlotItem().setLabel("left", unit or "throughput")
        self._place_labels(points)
        if points:
            xs = [p.cost_usd for p in points]
            ys = [p.throughput for p in points]
            span = max(max(xs) - min(xs), max(xs) * 0.1, 1.0)
            self.getPlotItem().setXRange(min(xs) - 0.08 * span, max(xs) + 0.08 * span)
            ypad = max(max(ys) - min(ys), max(ys) * 0.1, 1.0) * 0.12
            self.getPlotItem().setYRange(min(ys) - ypad, max(ys) + ypad)
        self.settle()
        self._arrange_labels()

    def _place_labels(self, points: tuple[ScatterPoint, ...]) -> None:
        colour = THEMES.get(self.theme, THEMES["light"])["foreground"]
        while len(self.labels) < len(points):  # grow the pool once; never re-added
            label = pg.TextItem(anchor=(0, 1))
            self.getPlotItem().addItem(label)
            self.labels.append(label)
        for i, label in enumerate(self.labels):
            if i < len(points):
                p = points[i]
                label.setText(p.label if p.complete else f"{p.label} (≥ cost)", color=colour)
                label.setPos(p.cost_usd, p.throughput)
            label.setVisible(False)
        self._arrange_labels()

    def _arrange_labels(self, *_resized: object) -> None:
        """Each label beside its point where it neither leaves the plot nor covers another
        label (the places of ``LABEL_ANCHORS``, in that order); a label
        with no such place is left out (the table beside the chart names every build)."""
        points = self.shown_points
        view = self.getPlotItem().getViewBox()
        bounds = view.sceneBoundingRect()
        if bounds.width() < 1 or not points:
            return
        placed: list[QRectF] = []
        # no label covers another build's marker (its own sits at a corner of it)
        centres = [view.mapViewToScene(QPointF(p.cost_usd, p.throughput)) for p in points]
        markers = [QRectF(c.x() - 8, c.y() - 8, 16, 16) for c in centres]
        # front builds first (they are what the chart is read for), then by cost
        order = sorted(range(len(points)), key=lambda i: (i not in self.front, points[i].cost_usd))
        for i in order:
            label = self.labels[i]
            at = centres[i]
            others = [m for j, m in enumerate(markers) if j != i]
            text = label.textItem.boundingRect()
            w, h = text.width(), text.height()
            for ax, ay in LABEL_ANCHORS:
                rect = QRectF(at.x() - ax * w, at.y() - ay * h, w, h)
                if (
                    bounds.contains(rect)
                    and not any(rect.intersects(r) for r in placed)
                    and not any(rect.intersects(m) for m in others)
                ):
                    label.setAnchor((ax, ay))
                    label.setVisible(True)
                    placed.append(rect)
                    break
            else:
                label.setVisible(False)

    def set_theme(self, theme: str) -> None:
        super().set_theme(theme)
        if hasattr(self, "labels"):
            self._place_labels(self.shown_points)
