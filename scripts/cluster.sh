#!/usr/bin/env bash
# Production-style Temporal here, without Docker (opt-in; never part of scripts/setup.sh):
#   scripts/cluster.sh up       build (once, cached by version) the Temporal server + SQL tool + UI server from the Go
#                               module proxy, start PostgreSQL 15 in .state/cluster/pg, load the schema, start the server,
#                               register the namespace and the project's search attributes, wait until healthy
#   scripts/cluster.sh down     stop the UI server, the Temporal server and PostgreSQL, each by its pid
#   scripts/cluster.sh status   what runs, which versions, whether the frontend is healthy
#   scripts/cluster.sh restart-server [--kill]   stop (SIGTERM, or SIGKILL with --kill) and start the server process only
# Versions, store and shard count match docker-compose.yml. Address for workers/CLI: TEMPORAL_ADDRESS=127.0.0.1:17233.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TEMPORAL_SERVER_VERSION=1.32.1   # v1.32.2 needs Go >= 1.26.10; the local toolchain is 1.26.8
UI_SERVER_VERSION=2.56.0         # newest that resolves on the proxy; needs GOTOOLCHAIN=go1.26.10 (fetched from the proxy)
UI_GOTOOLCHAIN=go1.26.10
PG_VERSION=15
PG_PORT=${SHEETBENCH_CLUSTER_PG_PORT:-55432}
FRONTEND=127.0.0.1:17233
UI_PORT=18080
NAMESPACE=${TEMPORAL_NAMESPACE:-sheetbench}

BIN_DIR="$ROOT/.tools/cluster/temporal-$TEMPORAL_SERVER_VERSION"
UI_BIN_DIR="$ROOT/.tools/cluster/ui-$UI_SERVER_VERSION"
STATE="$ROOT/.state/cluster"
PG_DIR="$STATE/pg"
PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
SERVER_PID="$STATE/temporal-server.pid"
UI_PID="$STATE/ui-server.pid"
SQL_ENV=(SQL_PLUGIN=postgres12 SQL_HOST=127.0.0.1 SQL_PORT=$PG_PORT SQL_USER=temporal SQL_PASSWORD=temporal)

say() { printf '[cluster] %s\n' "$*"; }
die() { printf '[cluster] ERROR: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi; }
as_pg() { as_root runuser -u postgres -- "$@"; }
heavy() { nice -n 19 ionice -c3 "$@"; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
temporal_cli() { "$ROOT/.tools/temporal/bin/temporal" --address "$FRONTEND" "$@"; }

# --- builds (skipped when the cached binary's --version matches) -----------------------------------------------------
build_server() {
  if "$BIN_DIR/temporal-server" --version 2>/dev/null | grep -q "$TEMPORAL_SERVER_VERSION" &&
     "$BIN_DIR/temporal-sql-tool" --version 2>/dev/null | grep -q "$TEMPORAL_SERVER_VERSION"; then return; fi
  command -v go >/dev/null || die "Go is not installed: the Temporal server is built from the Go module proxy"
  say "building Temporal server + SQL tool v$TEMPORAL_SERVER_VERSION from the Go module proxy (several minutes, once)"
  local tmp="$BIN_DIR.tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
  GOBIN="$tmp" heavy go install -trimpath -ldflags='-s -w' \
    "go.temporal.io/server/cmd/server@v$TEMPORAL_SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@v$TEMPORAL_SERVER_VERSION" 2>&1 | { grep -v '^go: downloading' || true; } >&2
  mv "$tmp/server" "$tmp/temporal-server"; mv "$tmp/sql" "$tmp/temporal-sql-tool"
  rm -rf "$BIN_DIR"; mv "$tmp" "$BIN_DIR"
}

build_ui() {
  if "$UI_BIN_DIR/temporal-ui-server" --version 2>/dev/null | grep -q "$UI_SERVER_VERSION"; then return; fi
  say "building Temporal UI server v$UI_SERVER_VERSION (optional; the cluster runs without it)"
  local tmp="$UI_BIN_DIR.tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
  if GOTOOLCHAIN=$UI_GOTOOLCHAIN GOBIN="$tmp" heavy go install -trimpath -ldflags='-s -w' \
       "github.com/temporalio/ui-server/v2/cmd/server@v$UI_SERVER_VERSION" 2>&1 | { grep -v '^go: downloading' || true; } >&2; then
    mv "$tmp/server" "$tmp/temporal-ui-server"; rm -rf "$UI_BIN_DIR"; mv "$tmp" "$UI_BIN_DIR"
  else
    rm -rf "$tmp"; say "UI server did not build; continuing without the UI"
  fi
}

# --- PostgreSQL --------------------------------------------------------------------------------------------------------
ensure_pg_installed() {
  [ -x "$PG_BIN/pg_ctl" ] && return
  say "installing PostgreSQL $PG_VERSION from Debian"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "postgresql-$PG_VERSION"
}

pg_running() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; }

start_pg() {
  mkdir -p "$PG_DIR"; as_root chown postgres: "$PG_DIR"; chmod 700 "$PG_DIR"
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    say "initdb $PG_DIR/data"
    as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    # Password auth over TCP, as a real deployment; the local socket stays trust for the postgres superuser.
    sed -i -E 's/^(host\s+all\s+all\s+127\.0\.0\.1\/32\s+)trust/\1scram-sha-256/' "$PG_DIR/data/pg_hba.conf"
  fi
  if ! pg_running; then
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" \
      -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1" -w start >/dev/null ||
      die "PostgreSQL did not start on port $PG_PORT (see $PG_DIR/postgres.log)"
  fi
  as_pg "$PG_BIN/psql" -h "$PG_DIR" -p "$PG_PORT" -U postgres -qtAc \
    "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='temporal') THEN
       CREATE ROLE temporal LOGIN PASSWORD 'temporal' CREATEDB; END IF; END \$\$;" >/dev/null
}

stop_pg() {
  [ -f "$PG_DIR/data/PG_VERSION" ] && pg_running || return 0
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null
}

# Idempotent; also upgrades a schema older than the server.
load_schema() {
  env "${SQL_ENV[@]}" lib/temporal/cluster/schema.sh "$BIN_DIR/temporal-sql-tool" >>"$STATE/schema.log" 2>&1 &&
    return
  die "loading the schema failed: $(grep -iE "error|fatal" "$STATE/schema.log" | tail -n 2) (see $STATE/schema.log)"
}

# --- Temporal server ---------------------------------------------------------------------------------------------------
healthy() { temporal_cli operator cluster health 2>/dev/null | grep -q SERVING; }

# The server's own start-up errors, translated where the cause is known.
startup_failure() {
  local this_start mismatch
  this_start=$(tail -c +$((${LOG_OFFSET:-0} + 1)) "$STATE/temporal-server.log")
  mismatch=$(grep -o 'version mismatch for keyspace/database: [^,]*\. Expected version: [0-9.]* cannot be greater than Actual version: [0-9.]*' <<<"$this_start" | tail -n 1 || true)
  if [ -n "$mismatch" ]; then
    die "the database schema is older than Temporal server v$TEMPORAL_SERVER_VERSION ($mismatch): \`scripts/cluster.sh up\` upgrades it"
  fi
  die "Temporal server exited during start-up: $(tail -n 3 <<<"$this_start")"
}

wait_healthy() {
  local deadline=$((SECONDS + ${1:-60}))
  until healthy; do
    alive "$SERVER_PID" || startup_failure
    [ $SECONDS -lt $deadline ] || die "Temporal frontend $FRONTEND not healthy within ${1:-60} s (see $STATE/temporal-server.log)"
    sleep 0.3
  done
}

start_server() {
  alive "$SERVER_PID" && return
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" ||
    die "PostgreSQL is not accepting connections on 127.0.0.1:$PG_PORT: the Temporal server cannot start without its store (\`scripts/cluster.sh up\` starts it; its log: $PG_DIR/postgres.log)"
  LOG_OFFSET=$(stat -c %s "$STATE/temporal-server.log" 2>/dev/null || echo 0)
  # The server's dynamic-config path is relative to its working directory: the repository root.
  nohup "$BIN_DIR/temporal-server" --config-file lib/temporal/cluster/server.yaml --allow-no-auth start \
    >>"$STATE/temporal-server.log" 2>&1 &
  echo $! > "$SERVER_PID"
  wait_healthy 90
}

stop_pid() { # pidfile signal
  alive "$1" || { rm -f "$1"; return 0; }
  local pid; pid=$(cat "$1"); kill "-$2" "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  rm -f "$1"
}

start_ui() {
  [ -x "$UI_BIN_DIR/temporal-ui-server" ] || return 0
  alive "$UI_PID" && return
  nohup "$UI_BIN_DIR/temporal-ui-server" --root lib/temporal/cluster --config ui --env development start \
    >>"$STATE/ui-server.log" 2>&1 &
  echo $! > "$UI_PID"
}

register_namespace() {
  npx tsx lib/temporal/cluster/prepare.ts "$FRONTEND" "$NAMESPACE"
}

up() {
  mkdir -p "$STATE"
  ensure_pg_installed
  build_server
  build_ui
  start_pg
  load_schema
  start_server
  register_namespace
  start_ui
  say "up: TEMPORAL_ADDRESS=$FRONTEND TEMPORAL_NAMESPACE=$NAMESPACE$([ -f "$UI_PID" ] && echo "  UI http://127.0.0.1:$UI_PORT")"
}

down() {
  stop_pid "$UI_PID" TERM
  stop_pid "$SERVER_PID" TERM
  stop_pg
  say "down"
}

status() {
  local rc=0
  if pg_running 2>/dev/null; then say "PostgreSQL $PG_VERSION: running on 127.0.0.1:$PG_PORT"; else say "PostgreSQL: stopped"; rc=1; fi
  if alive "$SERVER_PID"; then
    say "Temporal server $("$BIN_DIR/temporal-server" --version 2>/dev/null | awk '{print $NF}') pid $(cat "$SERVER_PID"): $(healthy && echo SERVING || echo 'not healthy') at $FRONTEND"
  else say "Temporal server: stopped"; rc=1; fi
  if alive "$UI_PID"; then say "UI server pid $(cat "$UI_PID"): http://127.0.0.1:$UI_PORT"; else say "UI server: stopped"; fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  restart-server)
    stop_pid "$SERVER_PID" "$([ "${2:-}" = --kill ] && echo KILL || echo TERM)"
    start_server; say "server restarted" ;;
  *) echo "usage: scripts/cluster.sh up|down|status|restart-server [--kill]" >&2; exit 2 ;;
esac
