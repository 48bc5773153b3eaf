"""Preferences persisted between runs: display choices and the analysis settings.

One versioned model, written atomically as JSON in the app's config folder
(``QStandardPaths.AppConfigLocation``); window geometry lives in ``QSettings``.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError
from PySide6.QtCore import QObject, QStandardPaths, Signal

from core.models.common import Frozen
from core.models.settings import AnalysisSettings

SETTINGS_VERSION = 1
SETTINGS_FILE = "settings.json"

Theme = Literal["light", "dark"]
Currency = Literal["USD", "EUR", "GBP", "JPY"]
Units = Literal["metric", "imperial"]
CURRENCY_SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}


class AppSettings(Frozen):
    version: Literal[1] = 1
    theme: Theme = "light"
    currency: Currency = "USD"
    usd_per_currency_unit: float = Field(default=1.0, gt=0)
    """Exchange rate the user states (1 unit of ``currency`` costs this many USD)."""
    units: Units = "metric"
    analysis: AnalysisSettings = AnalysisSettings()

    def money(self, usd: float | None, digits: int = 0) -> str:
        """A USD amount shown in the chosen currency ("unknown" for ``None``)."""
        if usd is None:
            return "unknown"
        value = usd / self.usd_per_currency_unit
        return f"{CURRENCY_SYMBOLS[self.currency]}{value:,.{digits}f}"

    def length(self, mm: float | None) -> str:
        if mm is None:
            return "unknown"
        return f"{mm / 25.4:.1f} in" if self.units == "imperial" else f"{mm:.0f} mm"


def default_settings_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(folder or Path.home() / ".config" / "RigForge") / SETTINGS_FILE


def _upgrade(raw: dict[str, object]) -> dict[str, object]:
    """Bring an older settings file to the current version (only v1 exists so far)."""
    raw.setdefault("version", SETTINGS_VERSION)
    return raw


def read_settings(path: Path) -> tuple[AppSettings, str | None]:
    """Settings from ``path``; defaults plus a message when the file is unreadable."""
    if not path.exists():
        return AppSettings(), None
    try:
        raw = json.loads(path.read_text("utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("expected a JSON object")
        return AppSettings.model_validate(_upgrade(raw)), None
    except (OSError, ValueError, ValidationError) as error:
        first = str(error).splitlines()[0]
        return AppSettings(), f"{path.name}: {first}; defaults used"


def write_settings(path: Path, settings: AppSettings) -> None:
    """Atomic write: a temporary file in the same folder, then ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings.model_dump(mode="json"), indent=2)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        raise


class SettingsViewModel(QObject):
    settings_changed = Signal(object)
    """Emitted with the new ``AppSettings`` after a change (already saved)."""

    def __init__(self, path: Path | None = None) -> None:
        super().__init__()
        self.path = path or default_settings_path()
        self._settings, self.load_error = read_settings(self.path)
        self.save_error: str | None = None

    @property
    def settings(self) -> AppSettings:
        return self._settings

    def set_settings(self, settings: AppSettings) -> None:
        if settings == self._settings:
            return
        self._settings = settings
        try:
            write_settings(self.path, settings)
            self.save_error = None
        except OSError as error:
            self.save_error = f"Settings not saved: {error}"
        self.settings_changed.emit(settings)

    def set_analysis(self, analysis: AnalysisSettings) -> None:
        self.set_settings(self._settings.model_copy(update={"analysis": analysis}))
