#!/usr/bin/env bash
# Figures of `charter mcp`: the median round trip of settings_get over the
# real binary's stdio (1,000 calls in one session) next to the same call
# in-process (the backend alone, and the whole MCP stack over an in-memory
# transport), and the resident memory of an idle server (Linux).
# Usage: scripts/mcp-figures.sh [calls]
set -euo pipefail
calls=${1:-1000}
cd "$(dirname "$0")/.."
go test -run '^$' -bench 'SettingsGet' -benchtime="${calls}x" ./mcpserver/ ./commands/ |
  grep '^Benchmark' |
  awk '{
    med = rss = hwm = ""
    for (i = 3; i < NF; i += 2) {
      if ($(i+1) == "median-ns/call") med = sprintf("median %8.1f µs", $i / 1000)
      if ($(i+1) == "idle-VmRSS-kB")  rss = sprintf("   idle RSS %5.1f MB", $i / 1024)
      if ($(i+1) == "idle-VmHWM-kB")  hwm = sprintf(" (peak %5.1f MB)", $i / 1024)
    }
    printf "%-34s %s%s%s\n", $1, med, rss, hwm
  }'
