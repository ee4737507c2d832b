import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The engine writes to a temporary file beside the output, which is renamed over the output only once it exists and
 * is non-empty. Engines can report success without writing anything, and the output may be the input itself.
 */
export interface StagedOutput {
  tempPath: string;
  /** Moves the temporary file to the output path; returns an error text when the engine wrote nothing. */
  commit(): Promise<string | undefined>;
  discard(): Promise<void>;
}

export async function stageOutput(outputPath: string): Promise<StagedOutput> {
  const dir = path.dirname(outputPath);
  await mkdir(dir, { recursive: true });
  const tempPath = path.join(
    dir,
    `.${path.basename(outputPath, path.extname(outputPath))}.${randomBytes(4).toString('hex')}.recalc.xlsx`,
  );
  const discard = () => rm(tempPath, { force: true });
  return {
    tempPath,
    discard,
    async commit() {
      const size = await fileSize(tempPath);
      if (!size) {
        await discard();
        return 'the engine reported success but wrote no output file';
      }
      await rename(tempPath, outputPath);
      return undefined;
    },
  };
}

/** Size in bytes, or undefined when the path is not a regular file. */
export async function fileSize(p: string): Promise<number | undefined> {
  try {
    const s = await stat(p);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** Error text when the input cannot be recalculated at all, before any engine is involved. */
export async function checkInput(inputPath: string): Promise<string | undefined> {
  const size = await fileSize(inputPath);
  if (size === undefined) return `input file not found: ${inputPath}`;
  if (size === 0) return `input file is empty: ${inputPath}`;
  return undefined;
}
