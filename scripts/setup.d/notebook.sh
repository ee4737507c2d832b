# Notebook validation: the reference nbformat (Jupyter's own schema and validator) checks the .ipynb files that
# conversation exports write (test/analysis/export*.test.ts). Its own venv, so it never changes the sandbox's packages.
# Sourced by scripts/setup.sh; idempotent via its stamp.
NBFORMAT_VERSION=5.10.4

step_notebook_tools() {
  if stamp_ok notebook-venv "$NBFORMAT_VERSION" && [ -x "$TOOLS/notebook-venv/bin/python" ]; then return; fi
  say "nbformat $NBFORMAT_VERSION (notebook validation) in $TOOLS/notebook-venv"
  rm -rf "$TOOLS/notebook-venv"
  /usr/bin/python3 -m venv "$TOOLS/notebook-venv"
  "$TOOLS/notebook-venv/bin/python" -m pip install -q --disable-pip-version-check "nbformat==$NBFORMAT_VERSION"
  stamp_set notebook-venv "$NBFORMAT_VERSION"
}

step_notebook_tools
