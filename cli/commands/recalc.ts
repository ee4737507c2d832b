import type { Command } from 'commander';
import path from 'node:path';
import { z } from 'zod';
import { CliError, EXIT } from '../exitCodes';
import { createRecalculator } from '../../lib/recalc/index';

const recalcCliOptionsSchema = z.object({
  out: z.string().min(1).optional(),
  engine: z.enum(['libreoffice', 'excel']),
  timeout: z.coerce.number().int().positive(),
  instances: z.coerce.number().int().min(1).max(16),
});

/** `sheetbench recalc FILE... [--out DIR] [--engine libreoffice|excel] [--timeout MS] [--instances N]`. */
export function registerRecalcCommand(program: Command): void {
  program
    .command('recalc')
    .description(
      'recalculate workbooks in a spreadsheet engine so every formula has a cached value (in place unless --out)',
    )
    .argument('<files...>', 'workbooks to recalculate')
    .option('--out <dir>', 'write the recalculated copies here (same file names) instead of in place')
    .option('--engine <engine>', 'libreoffice (persistent headless soffice) or excel (Windows, COM)', 'libreoffice')
    .option('--timeout <ms>', 'per-file timeout in milliseconds', '120000')
    .option('--instances <n>', 'LibreOffice instances working in parallel', '1')
    .action(async (files: string[], raw: unknown) => {
      const parsed = recalcCliOptionsSchema.safeParse(raw);
      if (!parsed.success) {
        throw new CliError(
          `recalc: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`,
          EXIT.usage,
        );
      }
      const opts = parsed.data;
      const targets = outputPaths(files, opts.out);
      const recalculator = createRecalculator(opts.engine, { libreoffice: { instances: opts.instances } });
      let failed = 0;
      try {
        await Promise.all(
          files.map(async (file, i) => {
            const result = await recalculator.recalc(file, targets[i], { timeoutMs: opts.timeout });
            if (result.ok) console.log(`ok      ${file} -> ${targets[i]} (${result.durationMs} ms)`);
            else {
              failed++;
              console.log(`FAILED  ${file}: ${result.error}`);
            }
          }),
        );
      } finally {
        await recalculator.close();
      }
      if (failed) throw new CliError(`recalc: ${failed} of ${files.length} file(s) failed`, EXIT.failure);
    });
}

function outputPaths(files: string[], outDir: string | undefined): string[] {
  if (!outDir) return files;
  const targets = files.map((file) => path.join(outDir, path.basename(file)));
  const seen = new Set<string>();
  for (const [i, target] of targets.entries()) {
    if (seen.has(target))
      throw new CliError(`recalc: two inputs would both be written to ${target} (${files[i]})`, EXIT.usage);
    seen.add(target);
  }
  return targets;
}
