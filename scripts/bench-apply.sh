#!/usr/bin/env bash
# charter apply on a 20 MB CLAUDE.md whose block changes on every run, next
# to cp of the same file and to a copy that is fsynced as apply's is (dd
# conv=fsync), medians from one hyperfine run; then apply's peak RSS.
# Usage: scripts/bench-apply.sh [runs] [MB]
set -euo pipefail
runs=${1:-30}
mb=${2:-20}
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "bench-apply: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME/.claude"
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$tmp/charter" ./cmd/charter
f="$HOME/.claude/CLAUDE.md"
python3 - "$f" "$mb" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
with open(path, "w") as out:
    n = i = 0
    while n < size:
        line = f"line {i}: some instruction text that agents read, with words and more words\n"
        out.write(line); n += len(line); i += 1
PY
"$tmp/charter" apply >/dev/null
hyperfine -N --warmup 3 --runs "$runs" --export-json "$tmp/apply.json" \
  --prepare "bash -c '\"$tmp/charter\" settings set commands.suggestions.max_options \$((RANDOM % 19 + 1)) >/dev/null'" \
  "$tmp/charter apply" "cp $f $tmp/copy.md" "dd if=$f of=$tmp/copy2.md bs=1M conv=fsync status=none" >/dev/null
"$tmp/charter" settings set commands.suggestions.max_options 20 >/dev/null
rss=$( { /usr/bin/time -f '%M' "$tmp/charter" apply >/dev/null; } 2>&1 | tail -1)
python3 - "$tmp/apply.json" "$(stat -c %s "$f")" "$rss" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]
size, rss = int(sys.argv[2]), int(sys.argv[3]) * 1024
apply, cp, dd = (r["median"] for r in rows)
print(f"apply {size/2**20:.0f} MB: median {apply*1000:.1f} ms, {apply/cp:.2f}x cp ({cp*1000:.1f} ms), {apply/dd:.2f}x an fsynced copy ({dd*1000:.1f} ms)")
print(f"apply peak RSS: {rss/2**20:.1f} MB, {rss/size:.2f}x the file")
PY
