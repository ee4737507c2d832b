/**
 * The episode's rules, as SWE-agent's DefaultAgent applies them with the paper's configuration, in one pure state
 * machine the task workflow drives (no I/O: it runs inside the workflow):
 * - at most `per_instance_call_limit` (50) model calls, requeries included; the next call over it ends the episode
 *   (`exit_cost`);
 * - a reply that cannot be run (no or several tool calls, bad arguments, a blocked command, a bash syntax error) is
 *   requeried; three such replies in a row for one turn end it (`exit_format`, `max_requeries`);
 * - a command that runs over `execution_timeout` (60 s) is cancelled; `max_consecutive_execution_timeouts` (3) in a
 *   row end it (`exit_command_timeout`); any completed command resets the count;
 * - an observation holding the submission token ends it (`submitted`).
 */
import type { ExitStatus } from './episodeFiles';

export interface EpisodeLimits {
  maxModelCalls: number;
  maxRequeries: number;
  maxConsecutiveTimeouts: number;
}

/** SWE-agent's `max_requeries` default (the paper's configs keep it). */
export const MAX_REQUERIES = 3;

export interface EpisodeState {
  turn: number;
  attempt: number;
  modelCalls: number;
  consecutiveTimeouts: number;
  exit?: ExitStatus;
}

export const startEpisode = (): EpisodeState => ({ turn: 0, attempt: 0, modelCalls: 0, consecutiveTimeouts: 0 });

/** Before a model call: whether the call limit allows it (else the episode ends with exit_cost). */
export function beforeModelCall(s: EpisodeState, limits: EpisodeLimits): EpisodeState {
  return s.modelCalls >= limits.maxModelCalls ? { ...s, exit: 'exit_cost' } : s;
}

/** What one attempt of a turn came to. */
export type StepOutcome = { kind: 'unrunnable' } | { kind: 'ran'; timedOut: boolean; submitted: boolean };

export function afterStep(s: EpisodeState, outcome: StepOutcome, limits: EpisodeLimits): EpisodeState {
  const counted = { ...s, modelCalls: s.modelCalls + 1 };
  if (outcome.kind === 'unrunnable') {
    const attempt = s.attempt + 1;
    return attempt >= limits.maxRequeries ? { ...counted, attempt, exit: 'exit_format' } : { ...counted, attempt };
  }
  if (outcome.timedOut) {
    const consecutiveTimeouts = s.consecutiveTimeouts + 1;
    if (consecutiveTimeouts >= limits.maxConsecutiveTimeouts)
      return { ...counted, consecutiveTimeouts, exit: 'exit_command_timeout' };
    return { ...counted, consecutiveTimeouts, turn: s.turn + 1, attempt: 0 };
  }
  if (outcome.submitted) return { ...counted, consecutiveTimeouts: 0, turn: s.turn + 1, exit: 'submitted' };
  return { ...counted, consecutiveTimeouts: 0, turn: s.turn + 1, attempt: 0 };
}
