#!/usr/bin/env bash
# The whole test suite against real servers: unit tests, then integration tests over real HTTP.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci
bash scripts/ensure-services.sh
# The end-to-end tests drive the built web UI.
npm run build -w @svc/web >/dev/null
exec npx vitest run "$@"
