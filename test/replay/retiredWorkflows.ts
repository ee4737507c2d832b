/**
 * The task workflow as it will read once its legacy copy has retired (workflows/VERSIONS.md): a history recorded
 * before its marker fails, naming the patch id it lacks. Bundled by retired.test.ts only.
 */
import { patched } from '@temporalio/workflow';
import { CURRENT, retiredHistory } from '../../workflows/versions';

export async function spreadsheetTask(): Promise<void> {
  if (!patched(CURRENT.spreadsheetTask)) throw retiredHistory(CURRENT.spreadsheetTask);
}
