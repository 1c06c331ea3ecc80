#!/usr/bin/env bash
# Regenerates docs/agents.md from the agent table (core/agents/table*.go).
set -euo pipefail
cd "$(dirname "$0")/.."
go test ./core/agents -run '^TestAgentsDoc$' -count=1 -update-agents
