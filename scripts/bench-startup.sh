#!/usr/bin/env bash
# Start-up and hook cost of charter next to its floors, interleaved: each
# round runs every command once, in an order shuffled per round, so a load
# that comes and goes on a shared machine weighs on all of them alike;
# medians per command.
# Floors: `sh -c true`, and a Go hello world linking every package the
# charter binary links, charter's own included (blank imports, so all
# their package initialisation runs): what any command costs before its
# own work (issue 39).
# Usage: scripts/bench-startup.sh [rounds]
set -euo pipefail
rounds=${1:-200}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/charter" ./cmd/charter
mkdir -p "$tmp/floor" "$tmp/home" "$tmp/proj/.charter"
{
  printf 'package main\n\nimport (\n\t"fmt"\n'
  go list -deps ./cmd/charter | grep -v '/internal\|^internal/\|^vendor/\|^github.com/agentkit/charter/cmd/' | grep '\.' | sed 's/.*/\t_ "&"/'
  printf ')\n\nfunc main() { fmt.Println("hello") }\n'
} >"$tmp/floor/main.go"
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/same-packages" "$tmp/floor/main.go"
# Each binary twice: as the linker left it, and as installed by a copy
# (cat, so write(2)). The linker writes through mmap, which leaves the file
# in the page cache in 4 KiB pages, as a binary read back after eviction
# is too; a file written with write(2) may sit in larger folios, which
# makes every page fault at start-up cheaper. Both binaries of a ratio are
# always in the same state.
for b in charter same-packages; do
  cat "$tmp/$b" >"$tmp/$b.copied"
  chmod +x "$tmp/$b.copied"
done
export HOME="$tmp/home"
unset CLAUDE_CONFIG_DIR CODEX_HOME CHARTER_CONFIG_ROOT CHARTER_PROJECT_DIR
printf 'gates:\n  tests:\n    required: false\n' >"$tmp/proj/.charter/settings.yaml"
# What Claude Code sends the hooks (no gates required: an idle turn).
printf '{"session_id":"s1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$tmp/proj" >"$tmp/stop.json"
printf '{"session_id":"s1","cwd":"%s","hook_event_name":"InstructionsLoaded","file_path":"%s/CLAUDE.md","load_reason":"session_start"}' "$tmp/proj" "$tmp/proj" >"$tmp/loaded.json"
cd "$tmp/proj"
python3 - "$rounds" "$tmp" <<'PY'
import os, random, statistics, subprocess, sys, time
rounds, tmp = int(sys.argv[1]), sys.argv[2]
states = [("as built", ""), ("as installed by a copy", ".copied")]
def commands(suffix):
  ch = f"{tmp}/charter{suffix}"
  return [
    ("sh -c true", ["sh", "-c", "true"], None),
    ("same-packages hello world", [f"{tmp}/same-packages{suffix}"], None),
    ("charter --version", [ch, "--version"], None),
    ("charter version", [ch, "version"], None),
    ("charter settings get rules.tier", [ch, "settings", "get", "rules.tier"], None),
    ("charter detect --json", [ch, "detect", "--json"], None),
    ("charter ping --json", [ch, "ping", "--json"], None),
    ("charter help", [ch, "--help"], None),
    ("Stop hook, no gate (claude-stop)", [ch, "gate", "hook", "claude-stop"], "stop.json"),
    ("InstructionsLoaded hook (claude-loaded)", [ch, "gate", "hook", "claude-loaded"], "loaded.json"),
  ]
runs = [(state, suffix, name, argv, stdin) for state, suffix in states for name, argv, stdin in commands(suffix)]
times = {(state, name): [] for state, _, name, _, _ in runs}
null = subprocess.DEVNULL
order = random.Random(39)
for r in range(rounds + 5):
    # A new order each round: the command run after another binary finds
    # its own pages colder in the CPU's caches; no command always pays it.
    order.shuffle(runs)
    for state, _, name, argv, stdin in runs:
        f = open(f"{tmp}/{stdin}", "rb") if stdin else null
        t = time.perf_counter()
        subprocess.run(argv, stdin=f, stdout=null, stderr=null)
        d = time.perf_counter() - t
        if stdin:
            f.close()
        if r >= 5:  # warm-up rounds left out
            times[(state, name)].append(d)
med = {k: statistics.median(v) for k, v in times.items()}
print(f"{rounds} interleaved rounds; medians")
for state, suffix in states:
    sh, hello = med[(state, "sh -c true")], med[(state, "same-packages hello world")]
    print(f"-- binaries {state}")
    for name, _, _ in commands(suffix):
        m = med[(state, name)]
        extra = ""
        if "hook" in name:
            extra = f"  {m/(2*sh+hello):4.2f}x (2x sh -c true + hello world)"
        print(f"{name:42} {m*1000:7.2f} ms  {m/hello:4.2f}x hello world{extra}")
PY
