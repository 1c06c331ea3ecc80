#!/usr/bin/env bash
# Regenerates docs/architecture.md from the imports of the code.
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./core/internal/archtest -run '^TestArchitectureDoc$' -count=1 -update-arch
