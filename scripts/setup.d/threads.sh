# The bundles the workers' threads load their modules from (lib/threads/prebuiltModule.ts): a thread that loads its
# module through tsx instead costs about 0.25 CPU-s more to start. `sheetbench prebuild` rebuilds only the bundles whose
# sources changed (it hashes them; a few tenths of a second when all are fresh). Sourced by scripts/setup.sh.
step_thread_bundles() {
  local built
  built=$(node --import tsx cli/main.ts prebuild --quiet) ||
    { say "thread bundles not built: worker threads load their modules through tsx (slower start)"; return 0; }
  [ -z "$built" ] || say "thread bundles: $built"
}

step_thread_bundles
