#!/bin/sh
# The editor tests run the README's Neovim and Emacs set-ups in the real editors. Install Debian's packages
# when they are missing (quiet, non-interactive, as CI runs it: root). Machines that have them are left alone.
set -eu
missing=
command -v nvim >/dev/null 2>&1 || missing="$missing neovim"
if ! command -v emacs >/dev/null 2>&1; then missing="$missing emacs-nox elpa-eglot"
elif ! emacs --batch -q --eval "(require 'eglot)" >/dev/null 2>&1; then missing="$missing elpa-eglot"; fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "ensure-editors: missing$missing and this is not root; install Debian's packages:$missing" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
# shellcheck disable=SC2086 # the package list is meant to split
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "ensure-editors: could not install$missing" >&2
  exit 1
fi
rm -f "$log"
echo "ensure-editors: installed$missing"
