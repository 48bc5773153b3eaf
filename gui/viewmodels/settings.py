"""App preferences persisted between runs: theme, currency, units, defaults for new documents.

Preferences are the user's, not a document's: opening a file never writes them (a file
carries its own analysis settings in its session). One versioned model, written
atomically as JSON in the app's config folder (``QStandardPaths.AppConfigLocation``);
window geometry lives in ``QSettings``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError
from PySide6.QtCore import QObject, QStandardPaths, Signal

from core.errors import FileFormatError, RigForgeError, validation_message
from core.files.atomic import atomic_write_text
from core.files.safe_json import parse_json_bytes
from core.files.safe_read import read_limited
from core.models.common import Frozen
from core.models.cost import CurrencyCode
from core.models.settings import AnalysisSettings
from core.prices.currency import load_currency_table
from core.text.money import USD, Money

SETTINGS_FILE = "settings.json"
MAX_SETTINGS_BYTES = 64 * 1024

Theme = Literal["light", "dark"]
Paper = Literal["auto", "a4", "letter"]
Units = Literal["metric", "imperial"]


class AppSettings(Frozen):
    version: Literal[2] = 2
    theme: Theme = "light"
    currency: CurrencyCode = "USD"
    """Money is shown in this currency, converted with the bundled dated rate table."""
    units: Units = "metric"
    document_defaults: AnalysisSettings = AnalysisSettings()
    """Circuit, electricity price and utilization a new document starts with."""
    paper: Paper = "auto"
    """The build sheet's paper: ``auto`` is US Letter for a document on a North American
    circuit (120 V), A4 otherwise."""
    preparer: Annotated[str, Field(max_length=120)] = ""
    """Who the build sheet says prepared it ("Prepared by"); empty: no such line."""

    def paper_for(self, circuit: str) -> str:
        """The paper to print a document on ``circuit`` on: "a4" or "letter"."""
        if self.paper != "auto":
            return self.paper
        return "letter" if circuit.startswith("us-") else "a4"

    def length(self, mm: float | None) -> str:
        if mm is None:
            return "unknown"
        return f"{mm / 25.4:.1f} in" if self.units == "imperial" else f"{mm:.0f} mm"


def default_settings_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(folder or Path.home() / ".config" / "RigForge") / SETTINGS_FILE


def _upgrade(raw: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept a rate the user typed and the analysis settings as ``analysis``;
    version 2 converts with the bundled rate table and names the defaults for what they
    are."""
    if raw.get("version", 1) == 1:
        raw = {k: v for k, v in raw.items() if k != "usd_per_currency_unit"}
        if "analysis" in raw:
            raw["document_defaults"] = raw.pop("analysis")
        raw["version"] = 2
    return raw


def read_settings(path: Path) -> tuple[AppSettings, str | None]:
    """Settings from ``path``; defaults plus a message when the file is unreadable."""
    if not path.exists():
        return AppSettings(), None
    try:
        raw = parse_json_bytes(read_limited(path, MAX_SETTINGS_BYTES))
        if not isinstance(raw, dict):
            raise FileFormatError("expected a JSON object")
        return AppSettings.model_validate(_upgrade(raw)), None
    except ValidationError as error:
        return AppSettings(), f"{path.name}: {validation_message(error)}; defaults used"
    except RigForgeError as error:
        return AppSettings(), f"{path.name}: {error}; defaults used"


def write_settings(path: Path, settings: AppSettings) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(settings.model_dump(mode="json"), indent=2))


class SettingsViewModel(QObject):
    settings_changed = Signal(object)
    """Emitted with the new ``AppSettings`` after a change (already saved)."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self.path = path or default_settings_path()
        self._settings, self.load_error = read_settings(self.path)
        self.save_error: str | None = None
        self._money = self._make_money(self._settings)

    @property
    def settings(self) -> AppSettings:
        return self._settings

    @property
    def money(self) -> Money:
        """The one money formatter of the window, the PDF and the tables."""
        return self._money

    @staticmethod
    def _make_money(settings: AppSettings) -> Money:
        try:
            return Money(settings.currency, load_currency_table())
        except ValueError:
            return USD

    def currencies(self) -> tuple[str, ...]:
        return tuple(sorted(load_currency_table().per_base))

    def set_settings(self, settings: AppSettings) -> None:
        if settings == self._settings:
            return
        self._settings = settings
        self._money = self._make_money(settings)
        try:
            write_settings(self.path, settings)
            self.save_error = None
        except (OSError, RigForgeError) as error:
            self.save_error = f"Settings not saved: {error}"
        self.settings_changed.emit(settings)
