# Report tooling: the real inspect_ai (to validate the Inspect eval logs sheetbench writes) and Debian's Chromium
# (for the headless browser test of the HTML report). Sourced by scripts/setup.sh; idempotent via stamps.
INSPECT_AI_VERSION=0.3.285

step_report_tools() {
  if ! { stamp_ok inspect-venv "$INSPECT_AI_VERSION" && [ -x "$TOOLS/inspect-venv/bin/python" ]; }; then
    say "inspect_ai $INSPECT_AI_VERSION (log validation) in $TOOLS/inspect-venv"
    rm -rf "$TOOLS/inspect-venv"
    /usr/bin/python3 -m venv "$TOOLS/inspect-venv"
    "$TOOLS/inspect-venv/bin/python" -m pip install -q --disable-pip-version-check "inspect_ai==$INSPECT_AI_VERSION"
    stamp_set inspect-venv "$INSPECT_AI_VERSION"
  fi
  if ! { stamp_ok chromium debian && [ -x /usr/bin/chromium ]; }; then
    say "Debian chromium (headless browser test of the HTML report)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends chromium
    stamp_set chromium debian
  fi
}

step_report_tools
