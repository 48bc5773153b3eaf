"""Packaging files agree with each other, and ``rigforge --selftest`` reports honestly."""

from __future__ import annotations

import configparser
import importlib.util
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
APP_ID = "io.github.rigforge.RigForge"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(PACKAGING / "linux" / f"{APP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def mime_types() -> dict[str, ET.Element]:
    root = ET.parse(PACKAGING / "linux" / f"{APP_ID}.mime.xml").getroot()
    return {node.attrib["type"]: node for node in root.iter(f"{MIME_NS}mime-type")}


def bundle_files() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_files", PACKAGING / "bundle_files.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rigforge(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "gui", *args]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_desktop_entry_names_the_mime_type_the_xml_defines() -> None:
    listed = [t for t in desktop_entry()["MimeType"].split(";") if t]
    assert listed
    assert set(listed) <= set(mime_types())


def test_mime_type_matches_rigforge_files_by_extension_and_content() -> None:
    (node,) = mime_types().values()
    globs = [g.attrib["pattern"] for g in node.iter(f"{MIME_NS}glob")]
    assert "*.rigforge" in globs
    magic = [m.attrib["value"] for m in node.iter(f"{MIME_NS}match")]
    example = (ROOT / "resources" / "examples" / "single-rtx-4090.json").read_text("utf-8")
    assert any(value in example[:256] for value in magic)


def test_desktop_entry_metainfo_and_icons_use_one_id() -> None:
    entry = desktop_entry()
    assert entry["Icon"] == APP_ID
    meta = ET.parse(PACKAGING / "linux" / f"{APP_ID}.metainfo.xml").getroot()
    assert meta.findtext("id") == APP_ID
    assert meta.findtext("launchable") == f"{APP_ID}.desktop"
    assert meta.findtext("provides/binary") == entry["Exec"].split()[0]
    assert {m.text for m in meta.iter("mediatype")} == set(mime_types())
    icons = PACKAGING / "icons" / "hicolor"
    assert (icons / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    assert {p.parent.parent.name for p in icons.glob(f"*/apps/{APP_ID}.png")} >= {
        "16x16",
        "32x32",
        "48x48",
        "64x64",
        "128x128",
        "256x256",
    }


def test_spec_bundles_every_resource_file_at_its_package_path() -> None:
    spec_text = (PACKAGING / "rigforge.spec").read_text("utf-8")
    assert "resource_datas()" in spec_text
    datas = set(bundle_files().resource_datas(ROOT))
    for path in (ROOT / "resources").rglob("*"):
        if path.is_file() and path.suffix not in {".py", ".pyc"}:
            assert (str(path), str(path.parent.relative_to(ROOT))) in datas, path
    assert any(dest == "resources/catalog" for _, dest in datas)


def test_selftest_passes_and_lists_every_step() -> None:
    from gui.selftest import SELFTEST_STEPS

    result = rigforge("--selftest")
    assert result.returncode == 0, result.stdout + result.stderr
    for step in SELFTEST_STEPS:
        assert f"ok   {step.name}:" in result.stdout


def test_selftest_fails_naming_the_step_that_failed() -> None:
    # The presets step's loader raises, as it would with a damaged install.
    code = (
        "import sys\n"
        "import gui.selftest\n"
        "def broken():\n"
        "    raise OSError('presets.json: permission denied')\n"
        "gui.selftest.load_presets = broken\n"
        "from gui.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    result = rigforge("--selftest", code=code)
    assert result.returncode != 0
    assert "FAIL load_presets: OSError: presets.json: permission denied" in result.stdout
    assert "'load_presets'" in result.stderr
    assert "ok   load_catalog:" in result.stdout
    assert "SKIP render_main_window" in result.stdout


def test_first_paint_flag_reports_a_time_and_exits() -> None:
    result = rigforge("--selftest-first-paint")
    assert result.returncode == 0, result.stderr
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("{")]
    assert json.loads(line)["first_paint_monotonic_s"] > 0
