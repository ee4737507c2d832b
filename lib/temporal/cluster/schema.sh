#!/usr/bin/env sh
# Creates the two databases and loads/upgrades their schema; idempotent (re-running is a no-op or an upgrade).
# Used by scripts/cluster.sh and by the `temporal-schema` service of docker-compose.yml.
# Env: SQL_PLUGIN SQL_HOST SQL_PORT SQL_USER SQL_PASSWORD; $1 = path of temporal-sql-tool (default: on PATH).
set -eu
tool=${1:-temporal-sql-tool}
for db in temporal temporal_visibility; do
  schema=postgresql/v12/temporal; [ "$db" = temporal_visibility ] && schema=postgresql/v12/visibility
  "$tool" --db "$db" create-database 2>/dev/null || true   # fails only when it exists (or the server is down: caught next)
  "$tool" --db "$db" setup-schema -v 0.0                   # skipped when a schema is already there
  "$tool" --db "$db" update-schema -s "$schema"            # the schemas are embedded in the tool
done
