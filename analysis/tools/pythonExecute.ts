import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SandboxLostError } from '../../lib/sandbox/errors';
import type { Sandbox } from '../../lib/sandbox/types';
import { validateManifest } from '../manifest/validate';
import { MANIFEST_FILE, type VisualizationOutput } from '../manifest/schema';
import { checkRelativePath, INTERNAL_DIR, resolveInWorkspace } from '../workspace/paths';
import { codeDownloadsNote, fetchForCode, servedDownloads, type CodeDownload } from './codeDownloads';
import { describeExecution, type ExecutionReport } from './executionReport';
import { executionTimeoutMs } from './limits';
import { allowedImports } from './pythonPackages';
import { CAPTURE_FIGURES_CELL, parsePrepareReply, prepareCell } from './pythonPrelude';
import { savedDataPreview } from './savedData';
import { noteResetAnnounced, takeResetAnnounced, withSandbox } from './sandboxSessions';
import { chdirCell, restoreSession, type RestoreReport } from './sessionRestore';
import { ToolRefusal, type AnalysisTool, type ToolContext } from './types';

/** Budget of the tools' own cells (prelude, figure capture), separate from the user's time limit. */
const HELPER_CELL_TIMEOUT_MS = 30_000;
/** Written once a kernel of this conversation ran: a fresh kernel that finds it knows earlier state was lost. */
const SESSION_MARKER = `${INTERNAL_DIR}/python-session`;

export const STATE_RESET_NOTICE =
  'The Python state was reset before or during this execution (worker restart or kernel restart): variables, imports and ' +
  'objects from earlier calls are gone; files in the workspace are kept. Re-run any setup code you rely on.';

export const pythonExecuteArgs = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'Python 3 code. Variables persist between calls of this conversation. Print what you need to see; the value of a final expression is shown.',
    ),
  packages: z
    .array(z.string())
    .optional()
    .describe('Packages the code needs; only the allowed, pre-installed ones (nothing is installed at run time)'),
  workingDir: z.string().optional().describe('Sub-folder of the workspace to run in (default: the workspace root)'),
  timeout: z.number().positive().optional().describe('Seconds (capped by the configured execution limit)'),
});
type PythonExecuteArgs = z.infer<typeof pythonExecuteArgs>;

export interface PythonExecuteReport extends ExecutionReport {
  /** Valid outputs of visualization_manifest.json (tables, charts, images), when this execution changed it. */
  visualizations?: VisualizationOutput[];
  /** The first lines of the data files (tables, charts) this execution wrote, each under its path (savedData.ts). */
  savedData?: string;
  /** What is wrong with the manifest or its data files; fix and re-run. */
  manifestErrors?: string[];
  /** Set when earlier state was lost (see stateReset) or restored (see restored). */
  notice?: string;
  /** The kernel had been lost and its state was rebuilt by re-running the conversation's earlier cells. */
  restored?: { cells: number; turns: string[]; durationMs: number };
  /** With stateReset after a restore that failed: the names earlier cells defined that are gone. */
  lostVariables?: string[];
  /** URLs the code names, fetched with web_fetch before it ran and served to it from the saved files (codeDownloads). */
  downloads?: CodeDownload[];
  /** What the model is told about those downloads. */
  downloadNote?: string;
}

export const pythonExecuteTool: AnalysisTool<PythonExecuteArgs, PythonExecuteReport> = {
  name: 'python_execute',
  description:
    "Runs Python 3 in this conversation's persistent sandboxed kernel (pandas, numpy, scipy, matplotlib, seaborn, plotly, scikit-learn, openpyxl, " +
    'bs4 available; no network: use web_fetch to download). The working directory is the workspace, the only writable folder. ' +
    'Preloaded helpers: save_table(df, id, title, max_rows), save_chart(df, kind="line"|"bar"|"scatter"|"pie", x, y, group_by, title, x_label, y_label, id) ' +
    'write the data file and visualization_manifest.json for you; open matplotlib figures are saved as PNGs automatically.',
  args: pythonExecuteArgs,
  async run(args, ctx) {
    const modules = allowedImports(args.packages, ctx.config);
    const workingDir = await checkWorkingDir(args.workingDir, ctx);
    const timeoutMs = executionTimeoutMs(args.timeout, ctx.config);
    const downloads = await fetchForCode(args.code, ctx);
    const report = await withSandbox(ctx, 'python', (sandbox) =>
      execute(sandbox, args.code, { modules, workingDir, timeoutMs, downloads: servedDownloads(downloads) }, ctx),
    );
    const downloadNote = codeDownloadsNote(downloads);
    return downloads.length ? { ...report, downloads, ...(downloadNote ? { downloadNote } : {}) } : report;
  },
};

/** What the prelude sets up before a call: allowed modules, working folder, the URLs served from downloads. */
interface KernelOptions {
  modules: string[];
  workingDir: string;
  downloads: Record<string, string>;
}

async function checkWorkingDir(requested: string | undefined, ctx: ToolContext): Promise<string> {
  if (!requested) return '';
  const rel = checkRelativePath(requested);
  const info = await stat(await resolveInWorkspace(ctx.workspaceDir, rel)).catch(() => null); // no such file (or outside the workspace): told to the model below
  if (rel && !info?.isDirectory())
    throw new ToolRefusal(
      `workingDir ${requested} is not a folder of the workspace (create it first, or leave workingDir out)`,
    );
  return rel;
}

async function execute(
  sandbox: Sandbox,
  code: string,
  opts: KernelOptions & { timeoutMs: number },
  ctx: ToolContext,
): Promise<PythonExecuteReport> {
  const lostBefore = await prepareKernel(sandbox, opts, ctx);
  let restore = lostBefore && ctx.pythonHistory ? await restoreKernel(sandbox, opts, ctx) : undefined;
  const result = await sandbox.execute(code, { timeoutMs: opts.timeoutMs, signal: ctx.signal });
  // This code killed the kernel (a hard timeout): the earlier cells' state is brought back now, not at the next call.
  if (result.stateReset && ctx.pythonHistory) restore = await restoreKernel(sandbox, opts, ctx, true);
  const capture = result.stateReset
    ? null
    : await sandbox.execute(CAPTURE_FIGURES_CELL, { timeoutMs: HELPER_CELL_TIMEOUT_MS, signal: ctx.signal });
  const stateReset = restore ? !restore.ok : lostBefore || result.stateReset;
  if (result.stateReset && !ctx.pythonHistory) noteResetAnnounced(ctx.conversationId);
  const files = [...new Set([...result.files, ...(capture?.files ?? [])])].sort();
  const stderr = capture?.error
    ? `${result.stderr}\n[saving open matplotlib figures failed: ${capture.error}]`
    : result.stderr;
  const report = await describeExecution({ ...result, stderr, files, stateReset }, ctx);
  const manifest = await validateManifest(ctx.workspaceDir);
  const manifestError = manifest.errors.length
    ? `${MANIFEST_FILE} has problems (fix them and re-run):\n- ${manifest.errors.join('\n- ')}`
    : '';
  const visualizations = manifest.outputs.length && files.includes(MANIFEST_FILE) ? manifest.outputs : undefined;
  const savedData = await savedDataPreview(ctx.workspaceDir, visualizations, files, code);
  return {
    ...report,
    success: report.success && !manifestError,
    error: [report.error, manifestError].filter(Boolean).join('\n'),
    // The whole manifest when this execution changed it (so the caller sees every current output), else nothing new.
    ...(visualizations ? { visualizations } : {}),
    ...(savedData ? { savedData } : {}),
    ...(manifest.errors.length ? { manifestErrors: manifest.errors } : {}),
    ...restoreFields(restore, stateReset),
  };
}

/** Re-runs the conversation's earlier cells in a fresh kernel (helpers loaded), then returns to this call's folder. */
async function restoreKernel(
  sandbox: Sandbox,
  opts: KernelOptions,
  ctx: ToolContext,
  afterKill = false,
): Promise<RestoreReport> {
  if (afterKill) await prepareKernel(sandbox, opts, ctx);
  const cells = await ctx.pythonHistory!();
  const report = await restoreSession(sandbox, cells, {
    budgetMs: ctx.config.restoreBudgetMs,
    executionTimeoutMs: ctx.config.executionTimeoutMs,
    signal: ctx.signal,
  });
  await sandbox.execute(chdirCell(sandbox.workDirInside, opts.workingDir), {
    timeoutMs: HELPER_CELL_TIMEOUT_MS,
    signal: ctx.signal,
  });
  return report;
}

/** What the model is told about a lost kernel: restored (what was re-run), or reset (why, and which names are gone). */
function restoreFields(restore: RestoreReport | undefined, stateReset: boolean): Partial<PythonExecuteReport> {
  if (!restore) return stateReset ? { notice: STATE_RESET_NOTICE } : {};
  if (restore.ok) {
    if (!restore.cells) return {};
    const notice = `The Python kernel had been lost (worker restart, eviction or a killed execution); its state was restored by re-running ${restore.cells} earlier cell(s) of turn(s) ${restore.turns.join(', ')} in ${(restore.durationMs / 1000).toFixed(1)} s.`;
    return { restored: { cells: restore.cells, turns: restore.turns, durationMs: restore.durationMs }, notice };
  }
  const names = restore.lostVariables?.length ? `Gone: ${restore.lostVariables.join(', ')}.` : '';
  const notice =
    `${STATE_RESET_NOTICE} Restoring it by re-running the earlier cells failed: ${restore.failure} (${restore.restoredCells} of ${restore.cells} cells re-run). ${names}`.trim();
  return { notice, lostVariables: restore.lostVariables ?? [] };
}

/** Runs the prelude; true when this kernel is fresh although the conversation ran Python before (state lost). */
async function prepareKernel(sandbox: Sandbox, opts: KernelOptions, ctx: ToolContext): Promise<boolean> {
  const cell = prepareCell({ root: sandbox.workDirInside, ...opts });
  const prep = await sandbox.execute(cell, { timeoutMs: HELPER_CELL_TIMEOUT_MS, signal: ctx.signal });
  const reply = parsePrepareReply(prep.stdout);
  if (!reply)
    throw new SandboxLostError(
      `the python_execute prelude failed in the sandbox: ${prep.error || prep.stderr || 'no reply'}`,
    );
  if (reply.missing.length) {
    throw new ToolRefusal(
      `package(s) ${reply.missing.join(', ')} are allowed but not installed in this sandbox (set-up is incomplete); use other packages`,
    );
  }
  const marker = join(ctx.workspaceDir, SESSION_MARKER);
  const ranBefore = await stat(marker).then(
    () => true,
    () => false,
  );
  if (!ranBefore) {
    await mkdir(join(ctx.workspaceDir, INTERNAL_DIR), { recursive: true });
    await writeFile(marker, `${new Date().toISOString()}\n`);
  }
  // Without the history to restore from, a loss the model was told about when it happened is not news again.
  const announced = reply.fresh && !ctx.pythonHistory && takeResetAnnounced(ctx.conversationId);
  return (reply.fresh && ranBefore && !announced) || prep.stateReset;
}
