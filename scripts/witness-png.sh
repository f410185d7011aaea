#!/usr/bin/env bash
# Makes docs/witness.png, the screenshot of an --html page shown in the
# README: the witness of Peterson's fence under TSO, drawn by headless
# Chromium (Debian's chromium package: apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "witness-png: no chromium (apt-get install chromium)" >&2
	exit 1
fi
go build -o fencer ./cmd/fencer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./fencer insert -q --explain --html "$tmp/peterson.html" benchmarks/peterson.cs > /dev/null 2>&1
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
	--window-size=1000,960 --screenshot="$tmp/witness.png" "file://$tmp/peterson.html" > /dev/null 2>&1
cp "$tmp/witness.png" docs/witness.png
echo "docs/witness.png"
