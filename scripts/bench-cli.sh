#!/usr/bin/env bash
# Median wall time of charter commands next to a hello-world Go binary built
# the same way, measured in one run with hyperfine (apt-get install hyperfine).
# A second baseline, "deps floor", is the same hello world linking every
# third-party and network package charter links (blank imports, so their
# package initialisation runs): what start-up costs before charter's code.
# Usage: scripts/bench-cli.sh [runs]
set -euo pipefail
runs=${1:-300}
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "bench-cli: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/hello" "$tmp/home"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$tmp/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$tmp/hello/go.mod"
(cd "$tmp/hello" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/hello-bin" .)
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/charter" ./cmd/charter
mkdir -p "$tmp/floor"
{
  printf 'package main\n\nimport (\n\t"fmt"\n'
  go list -deps ./cmd/charter | grep -v '^github.com/agentkit/charter' | grep -v 'internal\|^vendor/' | grep '\.' | sed 's/.*/\t_ "&"/'
  printf ')\n\nfunc main() { fmt.Println("hello") }\n'
} >"$tmp/floor/main.go"
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/deps-floor" "$tmp/floor/main.go"
export HOME="$tmp/home"

hyperfine -N --warmup 20 --runs "$runs" --export-json "$tmp/read.json" \
  "$tmp/hello-bin" "$tmp/deps-floor" "$tmp/charter detect --json" "$tmp/charter ping --json" "$tmp/charter settings list --json" "$tmp/charter settings get rules.tier" >/dev/null
# Each set changes the value, so every run really writes and fsyncs.
hyperfine -N --warmup 5 --runs "$runs" --export-json "$tmp/write.json" \
  --prepare "$tmp/charter settings set gates.coverage.min 1" "$tmp/charter settings set gates.coverage.min 42.5" >/dev/null

python3 - "$tmp/read.json" "$tmp/write.json" <<'PY'
import json, sys
rows = [r for f in sys.argv[1:] for r in json.load(open(f))["results"]]
hello, floor = rows[0]["median"], rows[1]["median"]
for r in rows:
    name = r["command"].split("/")[-1].replace("hello-bin", "hello world")
    print(f"{name:45} median {r['median']*1000:6.2f} ms  {r['median']/hello:4.2f}x hello  {r['median']/floor:4.2f}x deps floor")
PY

# Two figures with baselines of their own, from one more run: settings get
# 20 directories below a project next to the same with --no-project
# (project discovery), and gate run of a gate whose command is `true` next
# to `sh -c true` (what charter adds around a gate).
proj="$tmp/proj"
deep="$proj$(printf '/d%d' $(seq 20))"
mkdir -p "$deep" "$proj/.charter"
printf 'rules:\n  tier: full\ngates:\n  tests:\n    required: true\n    command: "true"\n  lint:\n    required: false\n  coverage:\n    min: 0\n' >"$proj/.charter/settings.yaml"
cd "$deep"
hyperfine -N --warmup 20 --runs "$runs" --export-json "$tmp/more.json" \
  "$tmp/charter settings get rules.tier --no-project" "$tmp/charter settings get rules.tier" \
  "sh -c true" "$tmp/charter gate run --gate tests" >/dev/null
cd - >/dev/null
python3 - "$tmp/more.json" <<'PY'
import json, sys
r = [x["median"] for x in json.load(open(sys.argv[1]))["results"]]
print(f"settings get 20 levels below a project      {r[1]*1000:6.2f} ms  {r[1]/r[0]:4.2f}x --no-project ({r[0]*1000:.2f} ms)")
print(f"gate run, command true                      {r[3]*1000:6.2f} ms  +{(r[3]-r[2])*1000:.2f} ms over sh -c true ({r[2]*1000:.2f} ms)")
PY
