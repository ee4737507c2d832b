import { expect } from 'vitest';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';

/**
 * Each [from, to] pair stored by LibreOffice's own xlsx export (writeResults off), as it is whenever the results cannot
 * be written into a copy of the input (lib/recalc/cached_values.py): the writer that rewrites a workbook's styles,
 * conditional formats and charts. Each must really be rewritten, not copied (the workbook needs a formula).
 */
export async function exportByLibreOffice(pairs: [from: string, to: string][]): Promise<void> {
  const recalc = LibreOfficeRecalculator.create({ instances: 1, writeResults: false });
  try {
    for (const [from, to] of pairs) {
      const r = await recalc.recalc(from, to);
      expect(r).toMatchObject({ ok: true });
      expect(r.copied).toBeUndefined();
    }
  } finally {
    await recalc.close();
  }
}
