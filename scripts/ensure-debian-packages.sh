#!/bin/sh
# Installs the Debian packages named on the command line that are not installed yet: quiet, non-interactive,
# as CI runs it (root), with sudo otherwise. A machine that has them all is left alone (no apt-get at all).
#
#   sh scripts/ensure-debian-packages.sh PACKAGE...
set -eu
missing=
for p in "$@"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
  echo "ensure-debian-packages: missing$missing and this is not root; install these Debian packages" >&2
  exit 1
fi
echo "ensure-debian-packages: installing$missing"
log=$(mktemp)
# shellcheck disable=SC2086 # the package list is meant to split
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "ensure-debian-packages: apt-get could not install$missing" >&2
  exit 1
fi
rm -f "$log"
