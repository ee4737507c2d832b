import { disposeConversationTools, runTool, toolSpecs } from '../tools';
import type { AnalysisConfig } from '../../config/schema';
import type { SandboxFactory } from '../../lib/sandbox/types';
import { mimeTypeOf } from './mime';
import type { ExecutionLike, Toolbox, ToolOutcome } from './toolbox';

/**
 * The analysis tools (python_execute, node_execute, file_system, web_fetch, calculator) as the agent's toolbox. A run
 * whose code failed, or whose visualization manifest is wrong, counts as a failed call: the model is told to fix it, and
 * the loop guard and the fix-loop patterns see it as a failure.
 */
export function analysisToolbox(config: AnalysisConfig, sandboxFactory: () => Promise<SandboxFactory>): Toolbox {
  return {
    specs: (names) => toolSpecs(names),
    async run(name, rawArgs, ctx): Promise<ToolOutcome> {
      const outcome = await runTool(name, rawArgs, { ...ctx, config, sandboxFactory: await sandboxFactory() });
      return normalise(outcome);
    },
    dispose: (conversationId) => disposeConversationTools(conversationId),
  };
}

type Report = ExecutionLike & { success?: boolean; error?: string; manifestErrors?: string[] };

function normalise(outcome: ToolOutcome): ToolOutcome {
  if (!outcome.ok || !outcome.result || typeof outcome.result !== 'object') return outcome;
  const report = outcome.result as Report;
  const files = report.files?.map((f) => ({ ...f, type: mimeTypeOf(f.path) }));
  const result = files ? { ...report, files } : report;
  const manifest = report.manifestErrors?.length
    ? `visualization_manifest.json is not valid: ${report.manifestErrors.join('; ')}`
    : '';
  if (report.success === false || manifest) {
    return {
      ...outcome,
      ok: false,
      result,
      error: [report.error, manifest].filter(Boolean).join('\n') || 'the code failed',
    };
  }
  return { ...outcome, result };
}
