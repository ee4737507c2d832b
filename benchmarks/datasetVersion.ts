import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** Content hash and size of a dataset's index file (dataset.json, data.json): identifies the dataset version. */
export function contentVersion(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}:${bytes.length}`;
}

export async function fileVersion(file: string): Promise<string> {
  return contentVersion(await readFile(file));
}
