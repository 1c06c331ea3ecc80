#!/usr/bin/env bash
# The drift alarm: runs the real-agent tests (core/agenttest) against the
# pinned agents and against each agent's newest release, and prints one
# table, a row per test: what passes at the pinned versions and what the
# newest releases change. It reports; it never fails (the pinned run in
# `go test ./...` is the one that fails CI).
# Usage: scripts/agents-drift.sh   (needs npm; installs into the cache)
set -uo pipefail
cd "$(dirname "$0")/.."
pinned=$(scripts/agents.sh) || { echo "drift: could not install the pinned agents" >&2; exit 0; }
latest=$(scripts/agents.sh --latest) || { echo "drift: could not install the newest agents" >&2; exit 0; }

# results DIR: "Test verdict" lines, subtests included.
results() {
  CHARTER_AGENTS="$1" go test -count=1 -v -timeout 15m ./core/agenttest/ 2>&1 |
    awk '/^ *--- (PASS|FAIL|SKIP):/ { v=$2; sub(":","",v); print $3, v }'
}
results "$pinned" | sort >/tmp/charter-drift-pinned.$$
results "$latest" | sort >/tmp/charter-drift-latest.$$
printf '%-60s %-8s %-8s\n' "test" "pinned" "latest"
join -a1 -a2 -e "-" -o 0,1.2,2.2 /tmp/charter-drift-pinned.$$ /tmp/charter-drift-latest.$$ |
  while read -r name p l; do
    mark=""
    [ "$p" != "$l" ] && mark="  <- drift"
    printf '%-60s %-8s %-8s%s\n' "$name" "$p" "$l" "$mark"
  done
rm -f /tmp/charter-drift-pinned.$$ /tmp/charter-drift-latest.$$
exit 0
