import { readRequiredJson } from '../../lib/json';
import { namesInFolder } from '../../lib/runStore/files';
import { debugStepSchema, debugToolCallSchema } from './debugSchema';
import path from 'node:path';
import type { DebugStep, DebugToolCall } from './debug';
import type { ConversationLayout } from './layout';

/**
 * The tool calls of one turn's steps, in step and call order (what grounding matches an answer against); with `agents`,
 * only the calls of the steps whose agent (transcript) it accepts.
 */
export async function readTurnToolCalls(
  layout: ConversationLayout,
  turnId: string,
  agents?: (agent: string | undefined) => boolean,
): Promise<Array<DebugToolCall & { stepId: string }>> {
  const stepDir = new RegExp(`^${turnId.replace(/[^A-Za-z0-9_-]/g, '')}-s(\\d+)\\.tools$`);
  const dirs = (await namesInFolder(layout.debug)).flatMap((n) => {
    const m = stepDir.exec(n);
    return m ? [{ name: n, index: Number(m[1]) }] : [];
  });
  const calls: Array<DebugToolCall & { stepId: string }> = [];
  for (const d of dirs.sort((a, b) => a.index - b.index)) {
    const stepId = d.name.slice(0, -'.tools'.length);
    if (agents && !agents(await stepAgent(layout, stepId))) continue;
    const files = (await namesInFolder(path.join(layout.debug, d.name))).filter((n) => n.endsWith('.json')).sort();
    for (const f of files)
      calls.push({
        ...(await readRequiredJson(path.join(layout.debug, d.name, f), debugToolCallSchema)),
        stepId,
      });
  }
  return calls;
}

/** The agent of a step whose tool calls are recorded (its model step's record is written before the calls run). */
async function stepAgent(layout: ConversationLayout, stepId: string): Promise<string | undefined> {
  return (await readRequiredJson(path.join(layout.debug, `${stepId}.json`), debugStepSchema)).agent;
}

/** Every step's debug record, its tool calls merged in, in turn and step order. */
export async function readDebugSteps(layout: ConversationLayout): Promise<DebugStep[]> {
  const names = (await namesInFolder(layout.debug)).filter((n) => n.endsWith('.json'));
  const steps = await Promise.all(names.map((n) => readStep(layout, n)));
  return steps.sort(
    (a, b) =>
      a.turnId.localeCompare(b.turnId, undefined, { numeric: true }) ||
      a.index - b.index ||
      a.stepId.localeCompare(b.stepId),
  );
}

async function readStep(layout: ConversationLayout, name: string): Promise<DebugStep> {
  const step = await readRequiredJson(path.join(layout.debug, name), debugStepSchema);
  const toolDir = path.join(layout.debug, `${step.stepId}.tools`);
  const toolFiles = (await namesInFolder(toolDir)).filter((n) => n.endsWith('.json')).sort();
  if (!toolFiles.length) return step;
  const toolCalls = await Promise.all(
    toolFiles.map(async (f) => readRequiredJson(path.join(toolDir, f), debugToolCallSchema)),
  );
  const executions = toolCalls.map((c) => ({
    code: (c.args as { code?: unknown })?.code,
    result: (c.result ?? {}) as { stdout?: unknown; stderr?: unknown }, // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- widens {} to the fields read below
  }));
  const joined = (pick: (e: (typeof executions)[number]) => unknown) =>
    executions
      .map(pick)
      .filter((v): v is string => typeof v === 'string')
      .join('\n');
  return {
    ...step,
    toolCalls,
    code: joined((e) => e.code) || undefined,
    stdout: joined((e) => e.result.stdout) || undefined,
    stderr: joined((e) => e.result.stderr) || undefined,
    sandbox: toolCalls.find((c) => c.sandbox)?.sandbox,
    timing: {
      ...step.timing,
      toolsMs: toolCalls.reduce((s, c) => s + c.durationMs, 0),
      executionMs: toolCalls.filter((c) => /_execute$/.test(c.tool)).reduce((s, c) => s + c.durationMs, 0),
    },
  };
}
