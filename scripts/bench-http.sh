#!/usr/bin/env bash
# Requests per second of charter serve next to a bare net/http handler that
# writes the same bytes, measured in one run with wrk (-t2 -c32), plus the
# PATCH figure: one writer per schema key on distinct keys with the
# per-key base, writes/s next to a bare temp-file+fsync+rename loop, and
# the count of 412 answers (go test benchmarks in server).
# Usage: scripts/bench-http.sh [seconds per wrk run]
set -euo pipefail
secs=${1:-5}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "bench-http: needs wrk (apt-get install wrk)" >&2; exit 1; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/bare" "$tmp/bin"
export HOME="$tmp/home" PATH="$tmp/bin:$PATH" CGO_ENABLED=0
go build -trimpath -ldflags '-s -w' -o "$tmp/charter" ./cmd/charter

cat >"$tmp/bare/main.go" <<'GO'
// A bare handler: each path answers with the bytes of its file.
package main

import (
	"net/http"
	"os"
)

func main() {
	docs := map[string][]byte{}
	for i := 2; i+1 < len(os.Args); i += 2 {
		b, err := os.ReadFile(os.Args[i+1])
		if err != nil {
			panic(err)
		}
		docs[os.Args[i]] = b
	}
	http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(docs[r.URL.Path])
	}))
}
GO
printf 'module bare\n\ngo 1.26\n' >"$tmp/bare/go.mod"
(cd "$tmp/bare" && go build -trimpath -ldflags '-s -w' -o "$tmp/bare-bin" .)

"$tmp/charter" serve --config-root "$tmp/root" --port 41877 --json >"$tmp/ready.json" 2>"$tmp/serve.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/ready.json" ] && break; sleep 0.05; done
"$tmp/charter" settings set --config-root "$tmp/root" rules.tier full >/dev/null
sleep 2.1 # let the file settle: the cache trusts a file's identity 2 s after its last change
tok=$(cat "$tmp/root/local-server.token")
url=http://127.0.0.1:41877
paths=(/api/v1/settings /api/v1/wizard/detect-agent-switch /api/v1/ping)
args=()
for p in "${paths[@]}"; do
  f="$tmp/doc$(echo "$p" | tr / _)"
  curl -sf -H "Authorization: Bearer $tok" "$url$p" >"$f"
  args+=("$p" "$f")
done
"$tmp/bare-bin" 127.0.0.1:41878 "${args[@]}" &
pids+=($!)
sleep 0.3

rps() { wrk -t2 -c32 -d"${secs}s" "$@" | awk '/Requests\/sec/ {print $2}'; }
printf '%-40s %12s %12s %7s\n' endpoint charter bare ratio
for p in "${paths[@]}"; do
  c=$(rps -H "Authorization: Bearer $tok" "$url$p")
  b=$(rps "http://127.0.0.1:41878$p")
  printf '%-40s %12.0f %12.0f %6.2fx\n' "GET $p" "$c" "$b" "$(echo "$c / $b" | bc -l)"
done

# PATCH: one writer per schema key (SPEC §8), 20 rounds.
out=$(go test ./server/ -run '^$' -bench 'PatchSettingsBase$|BareFsync$' -benchtime 360x -count 1)
w=$(echo "$out" | awk '/BenchmarkPatchSettingsBase/ {for (i=1;i<=NF;i++) if ($(i+1)=="writes/s") print $i}')
c=$(echo "$out" | awk '/BenchmarkPatchSettingsBase/ {for (i=1;i<=NF;i++) if ($(i+1)=="412s") print $i}')
f=$(echo "$out" | awk '/BenchmarkBareFsync/ {for (i=1;i<=NF;i++) if ($(i+1)=="writes/s") print $i}')
printf '%-40s %12.0f %12.0f %6.2fx  412s: %s\n' "PATCH, a writer per key (base)" "$w" "$f" "$(echo "$w / $f" | bc -l)" "$c"
