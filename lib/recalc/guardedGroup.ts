import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A command run in a process group of its own that dies with the process that started it, even one killed with
 * SIGKILL (no exit hook runs then). PR_SET_PDEATHSIG alone is not enough for soffice: the signal reaches the process
 * it is set on (oosplash), not soffice.bin, which oosplash forks and which then lives on under init. Here a guard, a
 * `sh` leading the group, runs the command in the background and reads its stdin, a pipe whose only writer is this
 * process: when this process dies, for whatever reason, the read ends and the guard kills its whole group (the command
 * and every child it forked, which stay in the group). `stop()` kills the group at once.
 */
const GUARD = '"$@" </dev/null & read -r _; kill -KILL 0';

export interface GuardedGroup {
  /** The group's id (the guard's pid). */
  readonly pgid: number | undefined;
  readonly guard: ChildProcess;
  /** Kills the group (the guard, the command and its children); a group already gone is no error. */
  stop(): void;
}

export function spawnGuardedGroup(command: string, args: string[]): GuardedGroup {
  // detached: the guard leads a new process group (setsid), so the group kill reaches nothing of the caller's.
  const guard = spawn('sh', ['-c', GUARD, 'sh', command, ...args], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guard.stdin.on('error', () => undefined); // EPIPE once the guard is gone
  return {
    pgid: guard.pid,
    guard,
    stop() {
      if (guard.pid === undefined) return;
      try {
        process.kill(-guard.pid, 'SIGKILL');
      } catch {
        // already gone: nothing to stop
      }
    },
  };
}
