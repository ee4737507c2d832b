import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerSet } from '../../workers/createWorkers';
import { startE2E, type E2EEnv } from '../helpers/e2e';
import { rerunTask } from '../../client/rerunTask';
import { builtinTemplatePath } from '../../benchmarks/spreadsheetbench/agents/prompts/render';
import { copilot39604BadInput, copilot57105, copilot797, CORRECTED_CODE, REVISED_CODE } from './copilotScripts';
import {
  executionLabels,
  outputsOf,
  readStageFile,
  readTaskResult,
  requestsOf,
  runAgentOn,
  stageFiles,
  startInProcessWorkers,
  type FinishedRun,
} from './harness';

let env: E2EEnv;
let workers: WorkerSet;
let running: Promise<void>;
let happy: FinishedRun;

const stageOf = (callKey?: string) => callKey?.split('/copilot/')[1];

beforeAll(async () => {
  env = await startE2E(
    { rules: [...copilot57105(), ...copilot797(), ...copilot39604BadInput()] },
    { config: { spreadsheetbench: { maxRevisions: 2 } } },
  );
  workers = await startInProcessWorkers(env);
  running = workers.run();
  happy = await runAgentOn(env, 'sheetcopilot', ['57105']);
}, 240_000);

afterAll(async () => {
  await workers?.shutdown();
  await running;
  await env?.close();
}, 60_000);

describe('sheetcopilot', () => {
  it('runs six recorded stages; validation catches all zeros after a real recalculation and the corrected code passes', () => {
    const requests = requestsOf(env.llm.log, happy.runId, '57105');
    expect(requests.map((r) => stageOf(r.callKey))).toEqual([
      'understand',
      'plan',
      'implement',
      'validate',
      'revise-tc2-1',
    ]);
    const [understand, plan, implement, validate, revise] = requests;
    expect(understand.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(understand.messages[0].content).toContain(
      'Output file: /mnt/data/outputs/sheetcopilot_scripted-model/1_57105_output.xlsx',
    );
    expect(understand.messages[1].content).toContain('FORMAT REFERENCE: the answer position already holds FORMULAS');
    expect(understand.messages[2].content).toContain('## 1. Core Objective');
    expect(plan.messages).toHaveLength(5);
    expect(implement.messages).toHaveLength(7);
    expect(implement.messages[6].content).toContain('The variables `input_path` and `output_path` are predefined');
    // Validation saw the recalculated answer cells and the checker's flag; the reference fork's layout (lowl6/SpreadsheetBench) omits stage 2.
    expect(validate.messages).toHaveLength(7);
    expect(validate.messages[6].content).toContain('recalculated by the recalc engine');
    expect(validate.messages[6].content).toMatch(/- ALL_ZEROS: C4:C15: all 12 answer values are 0/);
    expect(revise.messages[4].content).toContain('unexpected layout in this copy');

    expect(stageFiles(happy.runDir, '57105')).toEqual([
      '1-observe.json',
      '2-understand.json',
      '3-plan.json',
      '4-implement.json',
      '5-validate.json',
      '6-final-tc1.json',
      '6-final-tc2-revise1.json',
      '6-final-tc2.json',
      '6-final-tc3.json',
    ]);
    const validation = readStageFile<{
      passed: boolean;
      correctedCode: string;
      inspection: { flags: { kind: string }[] };
    }>(happy.runDir, '57105', '5-validate.json');
    expect(validation.passed).toBe(false);
    expect(validation.inspection.flags.map((f) => f.kind)).toEqual(['ALL_ZEROS']);
    expect(validation.correctedCode).toBe(CORRECTED_CODE);
    const tc2 = readStageFile<{ success: boolean; attempts: { code: string; success: boolean }[] }>(
      happy.runDir,
      '57105',
      '6-final-tc2.json',
    );
    expect(tc2.attempts.map((a) => a.success)).toEqual([false, true]);
    expect(tc2.attempts[1].code).toBe(REVISED_CODE);
    // The code that succeeded on tc2 is the one tc3 starts from.
    expect(
      readStageFile<{ attempts: { code: string }[] }>(happy.runDir, '57105', '6-final-tc3.json').attempts[0].code,
    ).toBe(REVISED_CODE);

    expect(executionLabels(happy.runDir, '57105')).toEqual([
      'final-tc1',
      'final-tc2',
      'final-tc2-r1',
      'final-tc3',
      'validate-tc1',
    ]);
    expect(outputsOf(happy.runDir, '57105')).toEqual([1, 2, 3]);
    const result = readTaskResult(happy.runDir, '57105');
    expect(result.stages.map((s) => s.stage)).toEqual([
      'prepare',
      'observe',
      'understand',
      'plan',
      'implement',
      'validate',
      'final-tc1',
      'final-tc2',
      'final-tc3',
      'recalc',
      'score',
    ]);
    expect(result.stages.find((s) => s.stage === 'validate')?.outcome).toBe('validation failed (ALL_ZEROS)');
    expect(result.stages.find((s) => s.stage === 'final-tc2')).toMatchObject({
      llmCalls: 1,
      outcome: 'ok after 1 revision(s)',
    });
    expect(result.llmCalls).toBe(5);
    expect(result.failure).toBeUndefined();
  });

  it('bad replies at every stage: each stage records why, the revision budget ends it, the run goes on', async () => {
    const run = await runAgentOn(env, 'sheetcopilot', ['39604', '79-7']);
    expect(run.progress.done).toBe(2);
    const bad = readTaskResult(run.runDir, '39604');
    const outcome = (stage: string) => bad.stages.find((s) => s.stage === stage)?.outcome ?? '';
    expect(outcome('implement')).toBe('reply has code in the wrong language (```vba), not python');
    expect(outcome('validate')).toBe('reply has no code block');
    for (const tc of [1, 2, 3]) {
      expect(outcome(`final-tc${tc}`)).toMatch(
        /^failed: revision 1: reply truncated \(finish_reason: length\); revision 2 request failed: .*no text content.*; revision budget \(2\) ended it$/,
      );
    }
    expect(bad.failure?.message).toBe('reply has code in the wrong language (```vba), not python');
    expect(bad.testCaseResults).toEqual([0, 0, 0]);
    expect(executionLabels(run.runDir, '39604')).toEqual([]);
    const good = readTaskResult(run.runDir, '79-7');
    expect(good.failure).toBeUndefined();
    expect(good.testCaseResults).toEqual([1, 1, 1]);
  });

  it('rerun from stage 4 with a changed prompt reuses stages 1–3 from the record and records the new prompt', async () => {
    const before = requestsOf(env.llm.log, happy.runId, '57105').length;
    const promptDir = mkdtempSync(path.join(os.tmpdir(), 'sb-prompts-'));
    const changed = `${readFileSync(builtinTemplatePath('copilot_implement.v1'), 'utf8')}\nPROMPT-VARIANT-B: prefer EOMONTH.`;
    writeFileSync(path.join(promptDir, 'copilot_implement.v1.txt'), changed);
    const result = await rerunTask(env.client, env.config, {
      runDir: happy.runDir,
      taskId: '57105',
      fromStage: 4,
      promptDir,
    });
    const rerunRequests = requestsOf(env.llm.log, happy.runId, '57105').slice(before);
    expect(rerunRequests.map((r) => stageOf(r.callKey)?.split('#')[0])).toEqual([
      'implement',
      'validate',
      'revise-tc2-1',
    ]);
    expect(rerunRequests[0].messages[6].content).toContain('PROMPT-VARIANT-B');
    expect(result.stages.slice(1, 4).map((s) => [s.stage, s.outcome, s.llmCalls])).toEqual([
      ['observe', 'reused from record', 0],
      ['understand', 'reused from record', 0],
      ['plan', 'reused from record', 0],
    ]);
    const implement = readStageFile<{ exchange: { prompt: { source: string; template: string } } }>(
      happy.runDir,
      '57105',
      '4-implement.json',
    );
    expect(implement.exchange.prompt).toMatchObject({
      template: 'copilot_implement.v1',
      source: path.join(promptDir, 'copilot_implement.v1.txt'),
    });
    expect(
      readStageFile<{ exchange: { prompt: { source: string } } }>(happy.runDir, '57105', '3-plan.json').exchange.prompt
        .source,
    ).toBe('builtin');
    expect(result.failure).toBeUndefined();
  });

  it('a stage waits out more 429s than the old three attempts allowed: llm.retryLimits.rate_limit decides', async () => {
    const before = env.llm.log.length;
    // Three 429s in a row on the implement stage: attempts 1–3 fail, the 4th is answered (the limit is 10).
    env.llm.inject({ kind: 'rate_limit', retryAfterMs: 100 }, 3);
    const result = await rerunTask(env.client, env.config, { runDir: happy.runDir, taskId: '57105', fromStage: 4 });
    const implement = env.llm.log
      .slice(before)
      .filter((e) => stageOf(e.callKey)?.split('#')[0] === 'implement')
      .map((e) => e.answered);
    expect(implement).toEqual([false, false, false, true]);
    expect(result.failure).toBeUndefined();
  });
});
