#!/usr/bin/env bash
# Runs the set-up only when something is missing (a quick check of the stamps); the set-up itself is idempotent too.
cd "$(dirname "$0")/.."
exec bash scripts/setup.sh
