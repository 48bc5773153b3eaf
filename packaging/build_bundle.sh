#!/usr/bin/env bash
# Build the one-folder bundle dist/rigforge/ with PyInstaller, then self-test it.
# Usage: packaging/build_bundle.sh [python]   (default: .venv/bin/python)
# Needs PyInstaller in that Python: pip install pyinstaller==6.22.3
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${1:-.venv/bin/python}"

"$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/rigforge.spec
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" dist/rigforge/rigforge --selftest
echo "bundle: dist/rigforge ($(du -sh dist/rigforge | cut -f1))"
