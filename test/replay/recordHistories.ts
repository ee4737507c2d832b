/**
 * Records real workflow histories as replay fixtures: `node --import tsx test/replay/recordHistories.ts [version]`.
 * Runs the single agent on two dev20 tasks and SheetCopilot on one (scripted model, real Temporal, sandbox, LibreOffice),
 * then writes each run and task workflow history (binary protobuf) to test/replay/histories/. Re-record when a change is meant to alter
 * workflow commands (and guard the change with `patched()` for runs already in flight).
 * `... recordHistories.ts conversation [version]`: the analysis benchmark on one request (pattern auto, scripted reference
 * model): its analysisTask workflow and the conversation workflow of its turn.
 */
import { writeFileSync } from 'node:fs';
import proto from '@temporalio/proto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV20, runToEnd, startBenchmarkRun, startE2E } from '../helpers/e2e';
import { loadAnalysisSuite } from '../../analysisSuite/dataset';
import { requestConversationId } from '../../benchmarks/analysis/layout';
import { conversationWorkflowId } from '../../conversation/layout';
import { referenceAnalyst } from '../helpers/referenceAnalyst';
import type { Client } from '@temporalio/client';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copilot797 } from '../agents/copilotScripts';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'histories');
const CONVERSATION = process.argv[2] === 'conversation';
/** Fixture generation (v1: one child start per workflow task; v2: batched child starts behind `patched()`). */
const VERSION = (CONVERSATION ? process.argv[3] : process.argv[2]) ?? (CONVERSATION ? 'v1' : 'v2');
const ANALYSIS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/analysis');

async function writeHistory(client: Client, workflowId: string, name: string): Promise<void> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(path.join(OUT, name), proto.temporal.api.history.v1.History.encode(history).finish());
  process.stdout.write(`${name}: ${history.events?.length} events\n`);
}

async function recordConversation(): Promise<void> {
  const suite = await loadAnalysisSuite(ANALYSIS);
  const env = await startE2E({ rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, '') }, { config: { recalc: { engine: 'none' } } });
  try {
    const run = await startBenchmarkRun(env, { dataset: ANALYSIS, agent: 'auto', tasks: ['a01'] });
    await runToEnd(env, run);
    const taskWorkflowId = `${run.runId}/task/a01`;
    await writeHistory(env.client, taskWorkflowId, `${VERSION}-analysis-task-a01.history.bin`);
    await writeHistory(env.client, conversationWorkflowId(requestConversationId(taskWorkflowId)), `${VERSION}-conversation-a01.history.bin`);
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  if (CONVERSATION) return recordConversation();
  const env = await startE2E({ rules: [...copilot797(), ...Object.values(DEV20_SOLUTIONS)] });
  try {
    for (const [agent, tasks] of [['single', ['39604', '599-9']], ['sheetcopilot', ['79-7']]] as const) {
      const run = await startBenchmarkRun(env, { dataset: DEV20, agent, tasks: [...tasks] });
      await runToEnd(env, run);
      const ids = [run.runId, ...tasks.map((t) => `${run.runId}/task/${t}`)];
      for (const id of ids) await writeHistory(env.client, id, `${VERSION}-${agent}-${id === run.runId ? 'run' : `task-${id.split('/').pop()}`}.history.bin`);
    }
  } finally {
    await env.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
