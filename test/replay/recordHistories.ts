/**
 * Records real workflow histories as replay fixtures: `node --import tsx test/replay/recordHistories.ts [version]`.
 * Runs the single agent on two dev20 tasks and SheetCopilot on one (scripted model, real Temporal, sandbox, LibreOffice),
 * then writes each run and task workflow history (binary protobuf) to test/replay/histories/. Re-record when a change is meant to alter
 * workflow commands (and guard the change with `patched()` for runs already in flight).
 */
import { writeFileSync } from 'node:fs';
import proto from '@temporalio/proto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV20, runToEnd, startBenchmarkRun, startE2E } from '../helpers/e2e';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copilot797 } from '../agents/copilotScripts';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'histories');
/** Fixture generation (v1: one child start per workflow task; v2: batched child starts behind `patched()`). */
const VERSION = process.argv[2] ?? 'v2';

async function main(): Promise<void> {
  const env = await startE2E({ rules: [...copilot797(), ...Object.values(DEV20_SOLUTIONS)] });
  try {
    for (const [agent, tasks] of [['single', ['39604', '599-9']], ['sheetcopilot', ['79-7']]] as const) {
      const run = await startBenchmarkRun(env, { dataset: DEV20, agent, tasks: [...tasks] });
      await runToEnd(env, run);
      const ids = [run.runId, ...tasks.map((t) => `${run.runId}/task/${t}`)];
      for (const id of ids) {
        const history = await env.client.workflow.getHandle(id).fetchHistory();
        const name = `${VERSION}-${agent}-${id === run.runId ? 'run' : `task-${id.split('/').pop()}`}.history.bin`;
        writeFileSync(path.join(OUT, name), proto.temporal.api.history.v1.History.encode(history).finish());
        process.stdout.write(`${name}: ${history.events?.length} events\n`);
      }
    }
  } finally {
    await env.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
