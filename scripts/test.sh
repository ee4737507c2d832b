#!/usr/bin/env bash
# The test command after set-up: the static checks (type-check of server and web app, ESLint, Prettier) run beside the
# test suite, not before it. The suite waits on servers and held replies for part of its time and leaves about a
# third of a core idle on 2 cores; the static checks (about 105 CPU-s, single-threaded each) fill it instead of adding
# their time in front. They run at the lowest priority (nice 19): they take the CPU the suite leaves idle, not the
# CPU its tests wait for. Each check's output is printed after the suite, whole, under its name; the command fails when
# any of them or the suite fails. Arguments go to vitest (.ci/run passes its reporters).
set -uo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

checks=(typecheck lint format:check)
pids=()
for check in "${checks[@]}"; do
  nice -n 19 npm run -s "$check" >"$logs/$check.log" 2>&1 &
  pids+=($!)
done

npx vitest run "$@"
status=$?
suite_end=$SECONDS

for i in "${!checks[@]}"; do
  wait "${pids[$i]}"
  code=$?
  if [ "$code" -eq 0 ]; then
    echo "${checks[$i]}: passed"
  else
    echo "${checks[$i]}: FAILED (exit $code)"
    cat "$logs/${checks[$i]}.log"
    status=1
  fi
done
echo "static checks: done $((SECONDS - suite_end)) s after the suite"
exit "$status"
