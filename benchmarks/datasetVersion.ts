import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

/** Content hash and size of a dataset's index file (dataset.json, data.json): identifies the dataset version. */
export async function fileVersion(file: string): Promise<string> {
  const [text, info] = await Promise.all([readFile(file), stat(file)]);
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}:${info.size}`;
}
