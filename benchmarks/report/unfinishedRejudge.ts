import { unfinishedRejudge } from '../../lib/runStore/rejudgeRecord';

/**
 * A line for a run's summary (and report) while one of its rejudges is unfinished (none otherwise): its tag, how many
 * of its tasks (`tasksNoun`: "Visualization task(s)", "question(s)") and the command that finishes it.
 */
export async function unfinishedRejudgeLines(runDir: string, tasksNoun: string): Promise<string[]> {
  const unfinished = await unfinishedRejudge(runDir);
  if (!unfinished) return [];
  return [
    `  UNFINISHED: rejudge ${unfinished.tag} of ${unfinished.tasks.length} ${tasksNoun} stopped before its end: some ` +
      `of their judgments are new, the figures above are older; run \`sheetbench rejudge ${runDir}\` to finish it`,
  ];
}
