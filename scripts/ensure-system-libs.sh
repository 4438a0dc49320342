#!/usr/bin/env bash
# Make sure the system libraries WeasyPrint needs are present (Debian/Ubuntu).
# Installs them with apt-get when run as root; otherwise prints the exact command and fails.
set -euo pipefail

packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "WeasyPrint needs Pango, HarfBuzz's subset library and DejaVu fonts: ${missing[*]}." >&2
    echo "Install them with your system's package manager, then run make again." >&2
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "WeasyPrint needs system libraries that are missing: ${missing[*]}" >&2
    echo "Run:  sudo apt-get update && sudo $command" >&2
    exit 1
fi
echo "Installing system libraries for WeasyPrint: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$command >/dev/null
