#!/usr/bin/env bash
# bench-content.sh: charter's content projection against rulesync and ruler.
#
# One library (RULES rules, default 300, and a third as many skills, with 3
# files each besides SKILL.md, and commands) is generated in all three source layouts (.charter/, .rulesync/,
# .ruler/) and projected to claude, codex, cursor and copilot at project level
# by each tool: cold (a fresh copy of the sources) and no-change (the same
# command again at once). Tools run interleaved, round after round, with
# `cp -r` of the .charter source tree in the same rounds as the baseline,
# and two floors measured on charter's own output in the same rounds: a
# copy of it with its data made durable (`cp -r` then `sync -f`, syncfs:
# the floor of a cold run) and a stat walk of it (`find -printf` of size,
# mtime and inode: the floor of a no-change run); medians are reported as
# ratios, with peak RSS and the files and bytes each
# run wrote (regular files whose mtime is newer than a mark set before it).
#
# Usage: scripts/bench-content.sh [rounds]      (default 5)
# BENCH_DIR=dir keeps the scratch folder (default: a new one under /tmp);
# CHARTER_BIN=file runs that binary instead of building the clone's tree.
# PEERS_DIR=dir reuses an npm folder that already holds both peers.
# RULES=n sizes the library; TOOLS="charter" leaves the peers out (their
# runs take minutes at thousands of rules).
# Needs: go, npm (node 22 or later is installed from npm for rulesync when the
# system's node is older), GNU time (/usr/bin/time) or Linux /proc.
set -euo pipefail

ROUNDS=${1:-5}
RULES=${RULES:-300}
NS=$((RULES / 3))
read -ra tools <<<"${TOOLS:-charter rulesync ruler}"
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$(mktemp -d /tmp/bench-content.XXXXXX)}
PEERS=${PEERS_DIR:-$WORK/peers}
# An earlier run's trees. Nothing else is deleted before the rounds: ext4
# without a journal (as on this machine: no /proc/fs/jbd2 entry) passes
# over every inode freed in the last minute, or the last six while its
# inode table block is dirty, when it allocates one (recently_deleted), so
# a mass delete slows whoever creates files in the next minutes.
stale=$(find "$WORK/run" -maxdepth 1 -name '*-[0-9]*' 2>/dev/null | head -n1 || true)
rm -rf "$WORK/run"/*-[0-9]*
mkdir -p "$WORK/bin" "$WORK/src" "$WORK/run" "$WORK/home" "$PEERS"
log() { printf '%s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------
if [ -n "${CHARTER_BIN:-}" ]; then # a binary built elsewhere (another commit)
	cp "$CHARTER_BIN" "$WORK/bin/charter"
else
	log "building charter"
	(cd "$REPO" && go build -o "$WORK/bin/charter" ./cmd/charter)
fi

RULESYNC_V=- RULER_V=-
peers=0
case " ${tools[*]} " in *" rulesync "* | *" ruler "*) peers=1 ;; esac
if [ "$peers" = 1 ] && { [ ! -x "$PEERS/node_modules/.bin/rulesync" ] || [ ! -x "$PEERS/node_modules/.bin/ruler" ]; }; then
	log "installing rulesync and @intellectronica/ruler into $PEERS"
	(cd "$PEERS" && { [ -f package.json ] || npm init -y >/dev/null; } &&
		node_major=$(node -p 'process.versions.node.split(".")[0]') &&
		if [ "$node_major" -lt 22 ]; then npm install --no-audit --no-fund --silent node@22; fi &&
		PATH="$PEERS/node_modules/.bin:$PATH" npm install --no-audit --no-fund --silent rulesync@latest @intellectronica/ruler@latest)
fi
export PATH="$PEERS/node_modules/.bin:$PATH" # node 22 first, when installed here
if [ "$peers" = 1 ]; then
	RULESYNC_V=$(rulesync --version)
	RULER_V=$(ruler --version)
fi
log "charter $(git -C "$REPO" rev-parse --short HEAD), rulesync $RULESYNC_V, ruler $RULER_V, node $(node --version)"

TIME=""
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null; then
	TIME=/usr/bin/time
else
	log "no GNU time (apt-get install -y time): peak RSS from /proc polling, coarser"
fi

# --- the library in three layouts --------------------------------------------
body=""
for _ in $(seq 20); do body+="Follow this rule carefully in every case."$'\n'; done
gen() {
	local c=$WORK/src/charter/.charter r=$WORK/src/rulesync/.rulesync u=$WORK/src/ruler/.ruler
	# Written over in place, never deleted (see the note on deletes above).
	mkdir -p "$c"/{rules,skills,commands} "$r"/{rules,skills,commands} "$u"/{rules,skills}
	local i n g
	for i in $(seq -w 0 $((RULES - 1))); do
		n=rule-$i g="src/p$((10#$i % 7))/**/*.go"
		printf -- '---\ndescription: rule %s\nglobs: ["%s"]\n---\n%s' "$i" "$g" "$body" >"$c/rules/$n.md"
		printf -- '---\nroot: false\ntargets: ["*"]\ndescription: "rule %s"\nglobs: ["%s"]\n---\n%s' "$i" "$g" "$body" >"$r/rules/$n.md"
		printf -- '# %s (applies to %s)\n\n%s' "$n" "$g" "$body" >"$u/rules/$n.md" # ruler has no globs
	done
	for i in $(seq -w 0 $((NS - 1))); do
		n=skill-$i
		for d in "$c/skills/$n" "$r/skills/$n" "$u/skills/$n"; do
			mkdir -p "$d/b"
			printf '%s' "$body" >"$d/a.md"
			printf '%s' "$body" >"$d/b/c.md"
			printf '#!/bin/sh\necho %s\n' "$n" >"$d/run.sh"
			chmod +x "$d/run.sh"
		done
		printf -- '---\nname: %s\ndescription: skill %s\n---\n%s' "$n" "$i" "$body" >"$c/skills/$n/SKILL.md"
		printf -- '---\nname: %s\ndescription: "skill %s"\ntargets: ["*"]\n---\n%s' "$n" "$i" "$body" >"$r/skills/$n/SKILL.md"
		printf -- '---\nname: %s\ndescription: skill %s\n---\n%s' "$n" "$i" "$body" >"$u/skills/$n/SKILL.md"
		n=cmd-$i # ruler has no commands
		printf -- '---\ndescription: command %s\n---\nDo $ARGUMENTS.\n%s' "$i" "$body" >"$c/commands/$n.md"
		printf -- '---\ndescription: "command %s"\ntargets: ["*"]\n---\nDo $ARGUMENTS.\n%s' "$i" "$body" >"$r/commands/$n.md"
	done
	printf 'default_agents = ["claude", "codex", "cursor", "copilot"]\n' >"$u/ruler.toml"
}
log "generating the library"
gen
if [ -n "$stale" ]; then
	log "waiting six minutes after deleting the last run's trees"
	sync
	sleep 361
fi

# --- one timed run -------------------------------------------------------------
# run NAME DIR CMD...: times CMD in DIR; appends "name ms rss_kb files bytes rc"
# to $WORK/results.
now_ns() { date +%s%N; }
run() {
	local name=$1 dir=$2
	shift 2
	local mark=$WORK/run/.mark out=$WORK/run/$name.out rss=0 rc=0 t0 t1
	# No tool flushes another's writes: charter makes its files durable
	# (syncfs), which would otherwise also write out what the run before
	# it left in the page cache.
	sync
	touch "$mark"
	sleep 0.01 # an mtime strictly after the mark
	t0=$(now_ns)
	if [ -n "$TIME" ]; then
		(cd "$dir" && env_for "$name" && exec "$TIME" -f %M -o "$WORK/run/rss" "$@" >"$out" 2>&1) || rc=$?
		t1=$(now_ns)
		rss=$(tail -n1 "$WORK/run/rss")
	else
		(cd "$dir" && env_for "$name" && exec "$@" >"$out" 2>&1) &
		local pid=$! hw
		while hw=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null); do
			[ -n "$hw" ] && [ "$hw" -gt "$rss" ] && rss=$hw
			sleep 0.005
		done
		wait "$pid" || rc=$?
		t1=$(now_ns)
	fi
	local fb
	fb=$(find "$dir" -type f -newer "$mark" -printf '%s\n' | awk '{n++; b+=$1} END {print n+0, b+0}')
	echo "$name $(((t1 - t0) / 1000000)) $rss $fb $rc" >>"$WORK/results"
	[ "$rc" = 0 ] || log "$name exited $rc: $(tail -n3 "$out")"
}

# Each tool is executed directly, as the stat walk is: no shell or `env`
# between the timer and the tool (those cost a few milliseconds, as much as
# a whole no-change run of 100 rules). charter's home is set in the timed
# subshell before the exec.
charter_cmd=("$WORK/bin/charter" apply --project --project-dir . --agent claude,codex,cursor,copilot)
rulesync_cmd=(rulesync generate --targets claudecode,codexcli,cursor,copilot --features rules,commands,skills --silent)
ruler_cmd=(ruler apply --agents claude,codex,cursor,copilot --no-mcp --no-backup --no-gitignore --local-only)
env_for() {
	case $1 in charter-*) export HOME="$WORK/home" AGENTKIT_CONFIG_HOME="$WORK/home/charter" ;; esac
}

: >"$WORK/results"
for round in $(seq "$ROUNDS"); do
	log "round $round/$ROUNDS"
	# Nothing is deleted until the end: ext4 scans past recently deleted
	# inodes when it allocates one, which would charge a tool for the
	# clean-up of the run before it.
	mkdir "$WORK/run/cp-$round"
	run cp "$WORK/run/cp-$round" cp -r "$WORK/src/charter/.charter" .
	# a different tool goes first each round
	for k in "${!tools[@]}"; do
		t=${tools[$(((round + k) % ${#tools[@]}))]}
		d=$WORK/run/$t-$round
		cp -r "$WORK/src/$t" "$d"
		(cd "$d" && git init -q .) # a project, as in real use
		declare -n cmd=${t}_cmd
		run "$t-cold" "$d" "${cmd[@]}"
		run "$t-nochange" "$d" "${cmd[@]}"
		unset -n cmd
		if [ "$t" = charter ]; then
			# the floors, on this round's output (the sources and .git left out)
			mkdir "$WORK/run/out-$round"
			(cd "$d" && find . -mindepth 1 -maxdepth 1 ! -name .charter ! -name .git -exec cp -r {} "$WORK/run/out-$round/" \;)
			mkdir "$WORK/run/cpout-$round"
			run cpout "$WORK/run/cpout-$round" bash -c "cp -r '$WORK/run/out-$round/.' . && sync -f ."
			run statwalk "$d" find . -path ./.charter -prune -o -path ./.git -prune -o -type f -printf '%s %T@ %i\n'
		fi
	done
done

# --- report ------------------------------------------------------------------
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print int((a[NR/2]+a[NR/2+1])/2)}'; }
col() { awk -v n="$1" -v c="$2" '$1==n {print $c}' "$WORK/results" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.3f", a/b; else print "-"}'; }
declare -A T
for n in cp cpout statwalk charter-cold charter-nochange rulesync-cold rulesync-nochange ruler-cold ruler-nochange; do
	T[$n]=$(col "$n" 2)
done
echo
echo "library: $RULES rules, $NS skills x (SKILL.md + 3 files), $NS commands -> claude, codex, cursor, copilot (project level)"
echo "rounds: $ROUNDS (medians); rulesync $RULESYNC_V, ruler $RULER_V, node $(node --version); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-18s %9s %8s %10s %7s %11s %6s\n' run "ms" "÷cp" "peakRSS_KB" files bytes exit
for n in cp cpout statwalk charter-cold rulesync-cold ruler-cold charter-nochange rulesync-nochange ruler-nochange; do
	printf '%-18s %9s %8s %10s %7s %11s %6s\n' "$n" "${T[$n]}" "$(ratio "${T[$n]}" "${T[cp]}")" \
		"$(col "$n" 3)" "$(col "$n" 4)" "$(col "$n" 5)" "$(awk -v n="$n" '$1==n {print $6}' "$WORK/results" | sort -u | tr '\n' ' ')"
done
echo
echo "charter cold ÷ copy+syncfs of its output: $(ratio "${T[charter-cold]}" "${T[cpout]}")   charter no-change ÷ stat walk of its output: $(ratio "${T[charter-nochange]}" "${T[statwalk]}")"
for m in cold nochange; do
	echo "charter ÷ rulesync ($m): $(ratio "${T[charter-$m]}" "${T[rulesync-$m]}")   charter ÷ ruler ($m): $(ratio "${T[charter-$m]}" "${T[ruler-$m]}")"
done
echo
echo "charter's budget lines (last cold run):"
grep '^budget' "$WORK/run/charter-cold.out" || true
cx=$WORK/run/ruler-$ROUNDS/AGENTS.md
[ -f "$cx" ] && echo "ruler's AGENTS.md for codex: $(wc -c <"$cx") bytes"
cx=$WORK/run/rulesync-$ROUNDS/AGENTS.md
[ -f "$cx" ] && echo "rulesync's AGENTS.md for codex: $(wc -c <"$cx") bytes"
echo "raw results: $WORK/results; outputs: $WORK/run/*.out"
# The projected trees stay (see the note on deletes above): the next run in
# this folder removes them and waits, or remove $WORK yourself.
