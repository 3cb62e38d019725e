#!/usr/bin/env bash
# Installs what the browser tests need: Debian's chromium-headless-shell and
# chromium-driver (a real headless Chromium and its WebDriver server), and
# axe-core (the accessibility audit the tests inject, from the npm
# registry). Nothing downloads a browser: this uses the system's package
# manager and npm only, and does nothing when all are already installed.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

sudo=""
if [ "$(id -u)" -ne 0 ] && have sudo; then sudo="sudo"; fi

# The tests drive Chromium's headless shell (the same engine without a
# desktop browser's own windows: the tests take a third less time in it);
# where apt-get cannot install it, a desktop chromium already installed
# does.
if ! have chromedriver || ! have chromium-headless-shell; then
  if have apt-get && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
    echo "install-browser: installing chromium-headless-shell and chromium-driver with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends \
      chromium-headless-shell chromium-driver fonts-dejavu-core
  elif ! have chromedriver || ! { have chromium || have chromium-browser; }; then
    echo "install-browser: chromium and chromedriver are missing and cannot be installed here" >&2
    echo "(apt-get, as root or with sudo); install your system's chromium-headless-shell" >&2
    echo "(or chromium) and chromium-driver packages by hand." >&2
    exit 1
  fi
fi

# The accessibility audit the browser tests inject (axe-core, from the npm
# registry, pinned in crates/server/tests/browser/package-lock.json).
axe_dir="$(dirname "$0")/../crates/server/tests/browser"
if [ ! -f "$axe_dir/node_modules/axe-core/axe.min.js" ]; then
  if ! have npm; then
    echo "install-browser: installing npm with apt-get (for axe-core)" >&2
    $sudo apt-get install -y -q --no-install-recommends npm
  fi
  echo "install-browser: installing axe-core with npm" >&2
  npm ci --prefix "$axe_dir" --no-audit --no-fund --loglevel=error
fi
