#!/bin/sh
# The fio tests run the real fio. Install Debian's package when it is missing: quiet, non-interactive,
# as CI runs it (root). A machine that already has fio on PATH is left alone.
set -eu
if command -v fio >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "ensure-fio: fio is not installed and this is not root; install Debian's 'fio' package" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends fio; } >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "ensure-fio: could not install fio" >&2
  exit 1
fi
rm -f "$log"
command -v fio >/dev/null 2>&1 || { echo "ensure-fio: fio still not on PATH after installing" >&2; exit 1; }
echo "ensure-fio: installed $(fio --version)"
