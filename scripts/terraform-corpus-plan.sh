#!/bin/sh
# Makes the real plan of a folder of the Terraform corpus, offline, and writes it beside its .tf files as
# plan.json (`terraform show -json`). Usage, from the repository's root:
#
#   TF_PLUGIN_DIR=DIR sh scripts/terraform-corpus-plan.sh test/fixtures/terraform/corpus/OWNER--REPO/FOLDER [FILES]
#
# DIR is a provider mirror laid out as `terraform providers mirror` writes it (DIR/registry.terraform.io/...).
# FILES, when given, is the same folder in a checkout of the repository at the commit its SOURCE names: what it
# holds besides the .tf files (the files kops's configurations read with `file()`) is copied into the copy too.
# The folder is planned in a copy, with an override file that gives every `aws` provider configuration
# placeholder credentials and skips the calls a plan would make to AWS to check them (no resource is read from
# AWS, so a folder with a data source or a remote module cannot be planned offline). The corpus itself is not
# changed but for plan.json.
set -eu
: "${TF_PLUGIN_DIR:?set TF_PLUGIN_DIR to a provider mirror}"
folder=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -gt 1 ]; then cp -R "$2"/. "$work"/; fi
cp "$folder"/*.tf "$work"/
for alias in "" $(sed -n 's/^[[:space:]]*alias[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$folder"/*.tf | sort -u); do
  echo 'provider "aws" {'
  if [ -n "$alias" ]; then echo "  alias = \"$alias\""; fi
  echo '  access_key                  = "placeholder"'
  echo '  secret_key                  = "placeholder"'
  echo '  skip_credentials_validation = true'
  echo '  skip_requesting_account_id  = true'
  echo '  skip_metadata_api_check     = true'
  echo '  skip_region_validation      = true'
  echo '}'
done >"$work/zz_offline_override.tf"
printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' "$TF_PLUGIN_DIR" >"$work/cli.tfrc"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc"
if (cd "$work" && terraform init -input=false -no-color -backend=false >init.log 2>&1 &&
  terraform plan -input=false -no-color -refresh=false -out=plan.tfplan >plan.log 2>&1 &&
  terraform show -json plan.tfplan >plan.json); then
  cp "$work/plan.json" "$folder/plan.json"
  echo "$folder: plan.json written"
else
  echo "$folder: no plan:" >&2
  grep -h -A3 'Error' "$work/init.log" "$work/plan.log" 2>/dev/null | head -8 >&2
  exit 1
fi
