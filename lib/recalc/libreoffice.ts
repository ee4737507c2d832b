import { mkdtempSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Recalculator, RecalcResult } from './types';
import { startResult } from './result';
import { LoInstance } from './loInstance';
import { checkInput, stageOutput } from './outputFile';
import { killOrphanedInstancesOnce } from './staleInstances';
import { isFormulaFree } from './formulaFree';
import { ProfileTemplate } from './profileTemplate';

export const libreOfficeOptionsSchema = z.object({
  /** Pool size: soffice instances, each converting one file at a time. Two gave ≈ 1.5× on 2 cores. */
  instances: z.number().int().min(1).max(16).default(1),
  sofficePath: z
    .string()
    .min(1)
    .default(process.env.SHEETBENCH_SOFFICE ?? 'soffice'),
  pythonPath: z
    .string()
    .min(1)
    .default(process.env.SHEETBENCH_UNO_PYTHON ?? '/usr/bin/python3'),
  /** Parent folder of the instances' profiles; a fresh temporary folder (removed by close) when absent. */
  profileRoot: z.string().min(1).optional(),
  startTimeoutMs: z.number().int().positive().default(60_000),
  /** Per-file timeout when recalc() is given none (the official evaluator allows 120 s). */
  defaultTimeoutMs: z.number().int().positive().default(120_000),
  recycleAfter: z.number().int().positive().default(1_000),
  /** Start new profiles from the one kept after a first start (profileTemplate.ts); false: always a fresh profile. */
  profileTemplate: z.boolean().default(true),
  /**
   * Write LibreOffice's results into a copy of the input instead of having LibreOffice store the whole workbook (its
   * xlsx export is most of a file's time), whenever that gives the file LibreOffice's store would give
   * (lib/recalc/cached_values.py); false: always store.
   */
  writeResults: z.boolean().default(true),
});
export type LibreOfficeOptions = z.input<typeof libreOfficeOptionsSchema>;

/**
 * Recalculates with persistent headless LibreOffice instances: load read-only, calculateAll(), store as xlsx. A workbook
 * without any formula (formulaFree.ts) is copied as it is: nothing in it can be recalculated.
 * Requests go to the least-loaded instance; each instance converts one file at a time.
 */
export class LibreOfficeRecalculator implements Recalculator {
  readonly engine = 'libreoffice' as const;
  private closed = false;

  private constructor(
    private readonly instances: LoInstance[],
    private readonly defaultTimeoutMs: number,
    /** Parent folder of the instances' profiles. */
    readonly profileRoot: string,
    private readonly ownedProfileRoot: boolean,
  ) {}

  /** Synchronous: no process starts until the first recalc(). Throws a ZodError on bad options. */
  static create(options: LibreOfficeOptions = {}): LibreOfficeRecalculator {
    const opts = libreOfficeOptionsSchema.parse(options);
    killOrphanedInstancesOnce();
    const ownedRoot = opts.profileRoot ? undefined : mkdtempSync(path.join(os.tmpdir(), 'sheetbench-lo-'));
    const root = opts.profileRoot ?? ownedRoot!;
    const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const template = opts.profileTemplate ? ProfileTemplate.forSoffice(opts.sofficePath) : undefined;
    const instances = Array.from(
      { length: opts.instances },
      (_, i) =>
        new LoInstance({
          sofficePath: opts.sofficePath,
          pythonPath: opts.pythonPath,
          profileDir: path.join(root, `profile-${i}`),
          pipeName: `sheetbench_lo_${tag}_${i}`,
          startTimeoutMs: opts.startTimeoutMs,
          recycleAfter: opts.recycleAfter,
          template,
          writeResults: opts.writeResults,
        }),
    );
    return new LibreOfficeRecalculator(instances, opts.defaultTimeoutMs, root, ownedRoot !== undefined);
  }

  /** The pool's instances (diagnostics and tests: process group ids, restart counts). */
  get pool(): readonly LoInstance[] {
    return this.instances;
  }

  async recalc(inputPath: string, outputPath: string, opts: { timeoutMs?: number } = {}): Promise<RecalcResult> {
    const done = startResult(this.engine);
    if (this.closed) return done('the recalculator is closed');
    const input = path.resolve(inputPath);
    const inputError = await checkInput(input);
    if (inputError) return done(inputError);
    const staged = await stageOutput(path.resolve(outputPath));
    if (await isFormulaFree(input)) {
      // No formula: recalculating cannot change a value, the workbook is its own recalculated copy.
      await copyFile(input, staged.tempPath);
      return { ...done(await staged.commit()), copied: true };
    }
    const outcome = await this.leastLoaded().convert(input, staged.tempPath, opts.timeoutMs ?? this.defaultTimeoutMs);
    if (!outcome.ok) {
      await staged.discard();
      return done(outcome.error ?? 'LibreOffice reported a failure without a reason');
    }
    const written = {
      written: outcome.written,
      ...(outcome.storedBecause && { storedBecause: outcome.storedBecause }),
    };
    return { ...done(await staged.commit()), ...written };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.instances.map((instance) => instance.close()));
    if (this.ownedProfileRoot) await rm(this.profileRoot, { recursive: true, force: true });
  }

  private leastLoaded(): LoInstance {
    return this.instances.reduce((best, next) => (next.load < best.load ? next : best));
  }
}
