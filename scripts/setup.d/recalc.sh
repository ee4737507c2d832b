# Recalculation needs LibreOffice >= 24.8 (XLOOKUP, XMATCH, dynamic arrays) and python3-uno for Debian's python3.
# setup.sh's step_apt installs both from bookworm-backports; this step only verifies them, once per version.
step_recalc_check() {
  local version
  version=$(soffice --version 2>/dev/null | awk '{print $2}')
  if stamp_ok recalc "$version" && [ -n "$version" ]; then return; fi
  say "checking LibreOffice for recalculation (found: ${version:-none})"
  local major=${version%%.*}
  if [ -z "$version" ] || [ "$major" -lt 24 ]; then
    say "LibreOffice ${version:-missing} is too old for XLOOKUP; install libreoffice-calc-nogui from bookworm-backports"
    return 1
  fi
  /usr/bin/python3 -c 'import uno' || { say "python3-uno is missing for /usr/bin/python3"; return 1; }
  stamp_set recalc "$version"
}
step_recalc_check
