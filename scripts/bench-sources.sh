#!/bin/sh
# bench-sources.sh: 50 projects share one source of 300 rules (SPEC §15).
# Builds charter, makes a bare repository of 300 rules, declares it in 50
# projects, applies each, moves the source upstream and runs `sources
# update` on all 50 locks, then prints the timings and the cache entries.
# Everything lives in a temporary folder (HOME and XDG_CACHE_HOME too).
# Usage: scripts/bench-sources.sh [PROJECTS] [RULES]
set -eu
projects=${1:-50}
rules=${2:-300}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
# Built before HOME moves, so that Go's own caches are the developer's.
(cd "$here" && go build -o "$work/charter" ./cmd/charter)
charter="$work/charter"
export HOME="$work/home" XDG_CACHE_HOME="$work/cache" AGENTKIT_POLICY_FILE="$work/policy.yaml"
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset CHARTER_PROJECT_DIR AGENTKIT_CONFIG_HOME CLAUDE_CONFIG_DIR CODEX_HOME 2>/dev/null || true
mkdir -p "$HOME"

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

# The library: 300 rules.
mkdir -p "$work/lib/rules"
i=1
while [ "$i" -le "$rules" ]; do
	printf -- '---\ndescription: Team rule %d\n---\nFollow team rule %d.\n' "$i" "$i" > "$work/lib/rules/team-rule-$i.md"
	i=$((i + 1))
done
git -C "$work/lib" init -q -b main
git -C "$work/lib" add -A
git -C "$work/lib" commit -q -m one
git clone -q --bare "$work/lib" "$work/remote.git"
git -C "$work/lib" remote add origin "$work/remote.git"
url="file://$work/remote.git"

# 50 projects: add (each fetches), then apply (offline, from the cache).
t0=$(now)
p=1
while [ "$p" -le "$projects" ]; do
	mkdir -p "$work/p$p"
	git -C "$work/p$p" init -q
	(cd "$work/p$p" && "$charter" sources add "$url" --project > /dev/null)
	p=$((p + 1))
done
t1=$(now)
p=1
while [ "$p" -le "$projects" ]; do
	(cd "$work/p$p" && "$charter" apply --project --agent claude > /dev/null)
	p=$((p + 1))
done
t2=$(now)
# A second apply: everything current.
p=1
while [ "$p" -le "$projects" ]; do
	(cd "$work/p$p" && "$charter" apply --project --agent claude --check > /dev/null)
	p=$((p + 1))
done
t3=$(now)

# Upstream moves: 10 rules change, 5 are added. `sources update` on every
# project's lock, by script.
i=1
while [ "$i" -le 10 ]; do echo "Changed." >> "$work/lib/rules/team-rule-$i.md"; i=$((i + 1)); done
i=1
while [ "$i" -le 5 ]; do printf -- '---\ndescription: New %d\n---\nNew.\n' "$i" > "$work/lib/rules/new-rule-$i.md"; i=$((i + 1)); done
git -C "$work/lib" add -A
git -C "$work/lib" commit -q -m two
git -C "$work/lib" push -q origin main
t4=$(now)
p=1
while [ "$p" -le "$projects" ]; do
	(cd "$work/p$p" && "$charter" sources update > "$work/update-$p.txt")
	p=$((p + 1))
done
t5=$(now)
changes=$(grep -c '^  [~+-] ' "$work/update-1.txt" || true)
entries=$(ls "$XDG_CACHE_HOME/charter/sources" | wc -l)
trees=$(ls "$XDG_CACHE_HOME/charter/sources"/*/trees | wc -l)
rules_in_tree=$(for t in "$XDG_CACHE_HOME/charter/sources"/*/trees/*; do ls "$t/rules" | wc -l; done | tr '\n' ' ')
projected=$(ls "$work/p1/.claude/rules" | wc -l)

echo "charter $(git -C "$here" rev-parse --short HEAD), $(git --version), $(uname -sm), $(nproc) cores"
echo "projects: $projects, rules in the source: $rules"
echo "sources add (fetch + pin), $projects projects: $(ms "$t0" "$t1") ms ($(( $(ms "$t0" "$t1") / projects )) ms each)"
echo "apply --project (offline, from the cache), $projects projects: $(ms "$t1" "$t2") ms ($(( $(ms "$t1" "$t2") / projects )) ms each)"
echo "apply --project --check, $projects projects: $(ms "$t2" "$t3") ms ($(( $(ms "$t2" "$t3") / projects )) ms each)"
echo "sources update (fetch + diff + lock), $projects projects: $(ms "$t4" "$t5") ms ($(( $(ms "$t4" "$t5") / projects )) ms each), $changes item changes listed per project"
echo "cache: $entries entry for the URL, $trees trees (one per commit), rule files per tree: $rules_in_tree; $projected rules projected in a project"
