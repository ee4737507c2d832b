# Compose-file validator: Debian's docker-compose 1.29.2 checks docker-compose.yml without a Docker engine
# (test/cluster/composeFile.test.ts). Sourced by scripts/setup.sh; idempotent via its stamp.
COMPOSE_VALIDATOR=docker-compose-1.29.2

step_compose_validator() {
  if stamp_ok compose "$COMPOSE_VALIDATOR" && command -v docker-compose >/dev/null; then return; fi
  say "Debian docker-compose (compose-file validation; no engine is installed)"
  # --no-install-recommends keeps the docker.io engine out (14 small Python packages instead of 44).
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends docker-compose ||
    { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends docker-compose; }
  stamp_set compose "$COMPOSE_VALIDATOR"
}

step_compose_validator
