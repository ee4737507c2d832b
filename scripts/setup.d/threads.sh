# The bundles the CLI, the standalone worker (lib/prebuilt/entryBundle.mjs) and the workers' threads
# (lib/threads/prebuiltModule.ts) start from: through tsx instead, a CLI start costs about 1.2 CPU-s more and a thread
# about 0.25. `sheetbench prebuild` rebuilds only the bundles whose sources changed (it hashes them; a few tenths of a
# second when all are fresh). Sourced by scripts/setup.sh.
step_thread_bundles() {
  local built
  built=$(node bin/entry.mjs cli/main.ts prebuild --quiet) ||
    { say "bundles not built: the CLI builds its own on first use; worker threads load their modules through tsx (slower start)"; return 0; }
  [ -z "$built" ] || say "bundles: $built"
}

step_thread_bundles
