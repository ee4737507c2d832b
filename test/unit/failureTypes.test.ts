import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { ConfigError } from '../../config/load';
import { TASK_FAILURE_CLASSES, type TaskFailureClass } from '../../contracts/taskResult';
import { FAILURE_TYPES, FailureTypes, LLM_FAILURE_TYPES, type FailureType } from '../../lib/failureTypes';
import { LLM_FAILURE_CLASSES } from '../../lib/llm/types';
import { DatasetError } from '../../lib/runStore/taskRecord';
import { classifyFailure, TASK_FAILURE_CLASS_OF } from '../../workflows/run/taskFailure';
import { sourceFiles } from '../architecture/importGraph';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** As the task workflow sees a failure: the activity's ApplicationFailure inside Temporal's ActivityFailure. */
function fromActivity(type: string): ActivityFailure {
  const cause = ApplicationFailure.nonRetryable(`task 7: it failed (${type})`, type);
  return new ActivityFailure('activity failed', 'copilotAsk', '1', RetryState.NON_RETRYABLE_FAILURE, 'worker', cause);
}

describe('failure types: a closed set that classifyFailure covers entirely', () => {
  it('maps every failure type to its own class: none is reported as internal', () => {
    for (const type of FAILURE_TYPES) {
      const failure = classifyFailure(fromActivity(type));
      expect(failure.class, type).toBe(TASK_FAILURE_CLASS_OF[type]);
      expect(failure.class, type).not.toBe('internal');
      expect(failure.message).toBe(`task 7: it failed (${type})`);
    }
  });

  it('StageMissing is the task record (dataset) and ConfigError the configuration (config), not internal', () => {
    expect(classifyFailure(fromActivity(FailureTypes.StageMissing)).class).toBe('dataset');
    expect(classifyFailure(fromActivity(FailureTypes.ConfigError)).class).toBe('config');
  });

  it('maps every model failure type (Llm.<class>) to llm', () => {
    expect(LLM_FAILURE_TYPES).toHaveLength(LLM_FAILURE_CLASSES.length);
    for (const type of LLM_FAILURE_TYPES) expect(classifyFailure(fromActivity(type)).class, type).toBe('llm');
  });

  it('reports a type outside the set, or no type at all, as internal', () => {
    expect(classifyFailure(fromActivity('Llm.unheard_of')).class).toBe('internal');
    expect(classifyFailure(fromActivity('TypeError')).class).toBe('internal');
    expect(classifyFailure(new Error('plain')).class).toBe('internal');
  });

  it('is exhaustive at the type level: the class table is keyed by exactly the failure types', () => {
    expectTypeOf(TASK_FAILURE_CLASS_OF).toEqualTypeOf<Readonly<Record<FailureType, TaskFailureClass>>>();
    expect(Object.keys(TASK_FAILURE_CLASS_OF).sort()).toEqual([...FAILURE_TYPES].sort());
    for (const cls of Object.values(TASK_FAILURE_CLASS_OF)) expect(TASK_FAILURE_CLASSES).toContain(cls);
  });

  it('the errors that escape activities by name carry a member of the set (Temporal takes the name as the type)', () => {
    expect(FAILURE_TYPES).toContain(new DatasetError('x', 1).name);
    expect(FAILURE_TYPES).toContain(new ConfigError('x').name);
  });

  it('no product file spells a failure type out: every thrower names it through lib/failureTypes.ts', () => {
    const literal = new RegExp(`['"\`](${FAILURE_TYPES.join('|')})['"\`]|\`Llm\\.\\$\\{`);
    // config/ is the lowest layer and cannot import lib/: ConfigError names itself (checked by the test above).
    const allowed = new Set(['lib/failureTypes.ts', 'config/load.ts']);
    const spelled = sourceFiles(REPO)
      .filter((f) => !f.startsWith('test/') && !allowed.has(f) && f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(path.join(REPO, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (literal.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(spelled).toEqual([]);
  });
});
