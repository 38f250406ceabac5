#!/bin/sh
# What `npm test` needs beyond npm packages, installed when missing and cached: the real fio (test/*/fio*),
# Neovim and Emacs with eglot (test/editors), pre-commit (the hook's test, test/cli/pre-commit.test.ts), jq (the
# Action's stand-in gh, test/cli/action-step.ts), and for the VS Code end-to-end test Chromium and code-server
# (scripts/e2e-setup.sh, which STORAGE_PERF_E2E=skip turns off).
set -eu
cd "$(dirname "$0")/.."
sh scripts/ensure-debian-packages.sh fio neovim emacs-nox elpa-eglot pre-commit jq
sh scripts/e2e-setup.sh
