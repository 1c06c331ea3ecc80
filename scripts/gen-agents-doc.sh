#!/usr/bin/env bash
# Regenerates docs/agents.md from the agent table (core/agenttable*.go).
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./core -run '^TestAgentsDoc$' -count=1 -update-agents
