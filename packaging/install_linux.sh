#!/usr/bin/env bash
# Install the bundle built by build_bundle.sh for one user (default) or system-wide.
# Usage: packaging/install_linux.sh [PREFIX]     PREFIX defaults to ~/.local
#        sudo packaging/install_linux.sh /usr/local
# Puts the bundle in PREFIX/lib/rigforge, a link in PREFIX/bin, and the desktop
# entry, icons, MIME type and AppStream file under PREFIX/share.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX="${1:-$HOME/.local}"
ID=io.github.rigforge.RigForge
[ -x dist/rigforge/rigforge ] || { echo "no bundle: run packaging/build_bundle.sh first" >&2; exit 1; }

rm -rf "$PREFIX/lib/rigforge"
mkdir -p "$PREFIX/lib" "$PREFIX/bin" "$PREFIX/share/applications" \
    "$PREFIX/share/mime/packages" "$PREFIX/share/metainfo"
cp -a dist/rigforge "$PREFIX/lib/rigforge"
ln -sf "$PREFIX/lib/rigforge/rigforge" "$PREFIX/bin/rigforge"
install -m 644 packaging/linux/$ID.desktop "$PREFIX/share/applications/$ID.desktop"
install -m 644 packaging/linux/$ID.mime.xml "$PREFIX/share/mime/packages/$ID.xml"
install -m 644 packaging/linux/$ID.metainfo.xml "$PREFIX/share/metainfo/$ID.metainfo.xml"
(cd packaging/icons && find hicolor -name "$ID.*" -exec install -D -m 644 {} "$PREFIX/share/icons/{}" \;)

# Refresh the caches when the tools exist (they do on desktop systems).
command -v update-mime-database >/dev/null && update-mime-database "$PREFIX/share/mime"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$PREFIX/share/applications"
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$PREFIX/share/icons/hicolor" || true
echo "installed RigForge in $PREFIX (run: $PREFIX/bin/rigforge)"
