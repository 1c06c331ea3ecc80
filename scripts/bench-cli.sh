#!/usr/bin/env bash
# Median wall time of charter commands next to a hello-world Go binary built
# the same way, in one run on this machine. Usage: scripts/bench-cli.sh [runs]
set -euo pipefail
runs=${1:-51}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/hello" "$tmp/home"
cat >"$tmp/hello/main.go" <<'GO'
package main

import "fmt"

func main() { fmt.Println("hello") }
GO
(cd "$tmp/hello" && go mod init hello >/dev/null 2>&1 && go build -trimpath -ldflags '-s -w' -o "$tmp/hello-bin" .)
go build -trimpath -ldflags '-s -w' -o "$tmp/charter" ./cmd/charter
export HOME="$tmp/home" PATH="/usr/bin:/bin"

# median CMD...: median wall time in microseconds over $runs runs.
median() {
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000))
  done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

hello=$(median "$tmp/hello-bin")
printf '%-40s %8s us\n' "hello world" "$hello"
report() {
  local name=$1; shift
  local m; m=$(median "$@")
  printf '%-40s %8s us  %5.2fx hello\n' "$name" "$m" "$(echo "$m / $hello" | bc -l)"
}
report "charter detect --json" "$tmp/charter" detect --json
report "charter ping --json" "$tmp/charter" ping --json
report "charter settings set (fsync)" "$tmp/charter" settings set gates.coverage.min 42.5
report "charter settings list --json" "$tmp/charter" settings list --json
