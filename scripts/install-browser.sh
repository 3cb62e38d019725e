#!/usr/bin/env bash
# Installs what the browser tests need: Debian's chromium and chromium-driver
# (a real headless Chromium and its WebDriver server). Nothing else downloads a
# browser: this uses the system's package manager only, and does nothing when
# both are already installed.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

if have chromedriver && { have chromium || have chromium-browser; }; then
  exit 0
fi

if ! have apt-get; then
  echo "install-browser: chromium and chromedriver are missing and apt-get is not available;" >&2
  echo "install your system's chromium and chromium-driver packages by hand." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if have sudo; then sudo="sudo"; else
    echo "install-browser: run as root (or install sudo) to install chromium" >&2
    exit 1
  fi
fi

echo "install-browser: installing chromium and chromium-driver with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends chromium chromium-driver fonts-dejavu-core
