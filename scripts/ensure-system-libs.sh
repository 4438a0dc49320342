#!/usr/bin/env bash
# Make sure the system libraries and tools the tool and its tests need are present
# (Debian/Ubuntu): Pango, HarfBuzz's subset library and DejaVu fonts for WeasyPrint; poppler's
# pdftotext, which tests read PDF text with; systemd's systemd-analyze, which tests check the
# shipped units with; Debian's Chromium, which tests open the HTML rule sheets in (headless, at
# phone and desktop widths: tests/presentation/test_browser.py); python3-venv where the Python
# lacks ensurepip. Installs them with apt-get when run as root; otherwise prints the exact
# command and fails.
set -euo pipefail

packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core poppler-utils systemd chromium)
# Debian's Python makes a virtualenv only with python3-venv (its ensurepip): needed when the
# Python make runs ($PYTHON, python3 by default) has no ensurepip.
if ! "${PYTHON:-python3}" -c 'import ensurepip' >/dev/null 2>&1; then
    packages+=(python3-venv)
fi
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "Needed: ${missing[*]} (WeasyPrint's libraries and fonts; pdftotext, systemd-analyze, chromium for the tests; python3-venv for the virtualenv)." >&2
    echo "Install them with your system's package manager, then run make again." >&2
    exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "System packages are missing: ${missing[*]}" >&2
    echo "Run:  sudo apt-get update && sudo $command" >&2
    exit 1
fi
echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$command >/dev/null
