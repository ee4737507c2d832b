import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RunLayout } from '../../../lib/runStore/runLayout';
import { compareRuns } from './compare';
import { renderHtml } from './html';
import { writeInspectLog } from './inspectLog';
import { loadRun, loadTranscripts } from './load';
import type { LoadedRun } from './load';
import type { Transcript } from './schemas';
import { renderMarkdown } from './markdown';
import { summarizeRun } from './summary';
import { runInsight } from './insight';
import { renderTranscriptHtml } from './transcriptHtml';

export interface ReportOptions {
  runDir: string;
  /** A baseline run to compare against. */
  compareDir?: string;
  /** Where report.md, report.html, tasks/<id>/transcript.html and logs/ go (default: the run folder). */
  outDir?: string;
}

export interface WrittenReport {
  markdown: string;
  html: string;
  inspectLog: string;
  transcriptPages: number;
  finishedTasks: number;
  pendingTasks: number;
}

export async function writeReport(opts: ReportOptions): Promise<WrittenReport> {
  const run = await loadRun(opts.runDir);
  const baseline = opts.compareDir ? await loadRun(opts.compareDir) : undefined;
  const outDir = opts.outDir ?? opts.runDir;
  await mkdir(outDir, { recursive: true });
  const transcripts = await loadTranscripts(run);
  const transcriptPages = await writeTranscriptPages(run, transcripts, outDir);
  const inspectLog = await writeInspectLog(run, transcripts, path.join(outDir, 'logs'));
  const summary = summarizeRun(run);
  const model = {
    run,
    summary,
    comparison: baseline ? compareRuns(run, baseline) : undefined,
    transcriptPages,
    inspectLog: path.relative(outDir, inspectLog).split(path.sep).join('/'),
    insight: await runInsight(run),
  };
  const markdown = path.join(outDir, 'report.md');
  const html = path.join(outDir, 'report.html');
  await writeFile(markdown, renderMarkdown(model));
  await writeFile(html, renderHtml(model));
  return {
    markdown,
    html,
    inspectLog,
    transcriptPages: transcriptPages.size,
    finishedTasks: summary.finishedTasks,
    pendingTasks: summary.pendingTasks,
  };
}

/** `<out>/tasks/<id>/transcript.html` for every task with a transcript; returns the keys written. */
async function writeTranscriptPages(
  run: LoadedRun,
  transcripts: Map<string, Transcript>,
  outDir: string,
): Promise<Set<string>> {
  const written = new Set<string>();
  const runLayout = new RunLayout(run.dir);
  const outLayout = new RunLayout(outDir);
  for (const task of run.tasks) {
    const transcript = transcripts.get(task.key);
    if (!transcript) continue;
    const pageDir = outLayout.taskDir(task.key);
    await mkdir(pageDir, { recursive: true });
    const jsonHref = path.relative(pageDir, runLayout.transcriptPath(task.key)).split(path.sep).join('/');
    await writeFile(path.join(pageDir, 'transcript.html'), renderTranscriptHtml(task, transcript, jsonHref));
    written.add(task.key);
  }
  return written;
}
