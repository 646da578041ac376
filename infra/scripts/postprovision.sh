#!/bin/sh
# azd postprovision hook: turn `azd env get-values` into loadgen's Azure settings file.
# Everything written is a name or an endpoint; access comes from `az login` and the
# data-plane roles infra/app/rbac.bicep gave the deploying user.
set -eu
cd "$(dirname "$0")/../.."
azd env get-values --output json | node infra/scripts/write-loadgen-settings.mjs
