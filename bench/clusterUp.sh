#!/usr/bin/env bash
# What `scripts/cluster.sh up` costs: wall time, peak memory of the largest single process (builds included), and disk
# (Go caches, cached binaries, PostgreSQL data). Run it on a fresh machine for the first-start figures, again for the
# second start (binaries cached, data present). Usage: bench/clusterUp.sh [--fresh-state]  (--fresh-state: `down` and
# delete .state/cluster first, keeping the built binaries).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --fresh-state ]; then scripts/cluster.sh down >/dev/null; rm -rf .state/cluster; fi
disk() { du -sm "$@" 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
timing=$(mktemp)
/usr/bin/time -f '%e %M' -o "$timing" scripts/cluster.sh up >&2
read -r wall peak_kb <"$timing"
printf 'cluster up: wall %.1f s, peak RSS of the largest process %d MB\n' "$wall" $((peak_kb / 1024))
printf 'disk: Go module cache %d MB, Go build cache %d MB, cached binaries %d MB, PostgreSQL data %d MB\n' \
  "$(disk "$(go env GOMODCACHE)")" "$(disk "$(go env GOCACHE)")" "$(disk .tools/cluster)" "$(disk .state/cluster/pg)"
pid=$(cat .state/cluster/temporal-server.pid)
pss_kb() { for p in "$@"; do awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup"; done | awk '{s += $1} END {print s + 0}'; }
pg_pids=$(pgrep -u postgres -f "$PWD/.state/cluster/pg/data" || true)
pg_pids="$pg_pids $(for p in $pg_pids; do pgrep -P "$p"; done)"
printf 'running: Temporal server PSS %d MB, PostgreSQL (postmaster + backends) PSS %d MB\n' \
  $(( $(pss_kb "$pid") / 1024 )) $(( $(pss_kb $pg_pids) / 1024 ))
