#!/usr/bin/env bash
# Microsoft's Event Hubs emulator string, unchanged, against devhost on 5672 — inside a private network namespace, so
# the test never binds 5672 on the machine. Run by SensorPipeline.EventHubs.Tests (MicrosoftEmulatorStringTests) as
#   unshare --net --map-root-user bash emulator-string.sh DEVHOST_DLL LOADGEN_DLL HUBS_FILE WORK_DIR
# Inside: loopback up, devhost (HTTP on 7071, free in a namespace of its own; AMQP also on 5672), loadgen sending with
# the .NET SDK, then the Node SDK's script tests/eventhubs-js/emulator-string.test.mjs; devhost is killed on exit.
set -euo pipefail
devhost_dll="$1" loadgen_dll="$2" hubs="$3" work="$4"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
string="Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true"

command -v ip >/dev/null || { echo "emulator-string: 'ip' (Debian's iproute2) is needed to bring up loopback in the namespace" >&2; exit 3; }
ip link set lo up

mkdir -p "$work/app"
dotnet "$devhost_dll" --app-root "$work/app" --data "$work/data" --port 7071 --hubs "$hubs" --set EventHubs:Amqp:ExtraPort=5672 >"$work/devhost.log" 2>&1 &
devhost=$!
trap 'kill -9 "$devhost" 2>/dev/null || true' EXIT
# The listening line, devhost's exit or 60 s end the wait (tail follows the log until then; it fails with SIGPIPE once
# grep has its line, hence the `|| true` and the check after).
timeout 60 tail --pid="$devhost" -n +1 -f "$work/devhost.log" | grep -q -m1 "devhost listening on" || true
grep -q "devhost listening on" "$work/devhost.log" \
  || { echo "emulator-string: devhost did not start:" >&2; cat "$work/devhost.log" >&2; exit 1; }
grep -q "AMQP also listening on 127.0.0.1:5672" "$work/devhost.log" \
  || { echo "emulator-string: devhost is not listening on 5672:" >&2; cat "$work/devhost.log" >&2; exit 1; }
echo "devhost listening on 7071 and 5672 in a private network namespace"

# 400 readings in 40 events, over AMQP with the .NET SDK (loadgen's default transport).
dotnet "$loadgen_dll" --connection "$string" --hub ingestion --count 400 --readings-per-event 10 \
  --devhost http://127.0.0.1:7071 --ledger "$work/ledger.json"
echo "loadgen sent 40 events with Microsoft's emulator string"

LOADGEN_SENT=40 node --test "$here/emulator-string.test.mjs"
