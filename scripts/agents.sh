#!/usr/bin/env bash
# Installs the real agents that core/agenttest runs (Claude Code, Codex,
# Gemini CLI, Copilot CLI, OpenCode, Qwen Code, Kilo, Cline, Continue) from
# npm at the pinned versions into DIR, unless they are already there at those
# versions, and prints DIR: the value for CHARTER_AGENTS. With --latest,
# installs each agent's newest release into another folder instead (the
# drift alarm runs the same tests against it), one at a time so that one
# that does not install leaves the others, and lists on stderr the
# versions it got.
# Usage: scripts/agents.sh [--latest] [DIR]
set -euo pipefail
pinned=(
  @anthropic-ai/claude-code@2.1.328
  @openai/codex@0.169.0
  @google/gemini-cli@0.61.0
  @github/copilot@1.0.102
  opencode-ai@1.18.33
  @qwen-code/qwen-code@0.24.4
  # 7.8.1 wants @kilocode/cli-linux-x64@7.8.1, which npm did not have
  # on 2026-11-27: its install fails.
  @kilocode/cli@7.7.7
  cline@3.0.65
  @continuedev/cli@1.5.47
)
cache=${XDG_CACHE_HOME:-$HOME/.cache}
latest=false
if [ "${1:-}" = --latest ]; then
  latest=true
  shift
fi
command -v npm >/dev/null || { echo "agents: needs npm (node 20 or later)" >&2; exit 1; }

# version prints the version of package $2 installed in $1, or nothing.
version() {
  local f="$1/node_modules/$2/package.json"
  [ -f "$f" ] && node -p "require(process.argv[1]).version" "$f" 2>/dev/null || true
}

if $latest; then
  dir=${1:-$cache/charter-agents-latest}
  mkdir -p "$dir"
  for p in "${pinned[@]}"; do
    npm install --silent --no-audit --no-fund --save-exact --prefix "$dir" "${p%@*}@latest" >/dev/null 2>&1 ||
      echo "agents: ${p%@*}: its newest release did not install" >&2
    echo "agents: ${p%@*} pinned ${p##*@}, latest $(version "$dir" "${p%@*}")" >&2
  done
  echo "$dir"
  exit 0
fi

dir=${1:-$cache/charter-agents}
mkdir -p "$dir"
missing=()
for p in "${pinned[@]}"; do
  # An agent counts as installed only with its command in node_modules/.bin.
  if [ "$(version "$dir" "${p%@*}")" != "${p##*@}" ]; then
    missing+=("$p")
  fi
done
for b in claude codex gemini copilot opencode qwen kilo cline cn; do
  [ -x "$dir/node_modules/.bin/$b" ] || { missing=("${pinned[@]}"); break; }
done
if [ ${#missing[@]} -gt 0 ]; then
  npm install --silent --no-audit --no-fund --save-exact --prefix "$dir" "${missing[@]}" >/dev/null
fi
echo "$dir"
