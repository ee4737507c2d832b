import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LibreOfficeRecalculator } from '../../lib/recalc/libreoffice';
import { fail, ok, type Check } from './check';

const INSTALL_LO = 'bash scripts/setup.sh (installs libreoffice-calc-nogui and python3-uno from bookworm-backports)';

/** LibreOffice starts headless and recalculates a tiny workbook whose formula carries a wrong cached value. */
export function libreOfficeCheck(opts: { sofficePath?: string } = {}): Check {
  return {
    name: 'LibreOffice',
    run: async () => {
      // exceljs is loaded here, by the full doctor only: the start-up checks import this file too (0.3 CPU-s saved).
      const { default: ExcelJS } = await import('exceljs');
      const dir = await mkdtemp(path.join(tmpdir(), 'sheetbench-doctor-lo-'));
      const recalculator = LibreOfficeRecalculator.create({
        profileRoot: path.join(dir, 'profile'),
        startTimeoutMs: 45_000,
        ...(opts.sofficePath ? { sofficePath: opts.sofficePath } : {}),
      });
      try {
        const input = path.join(dir, 'in.xlsx');
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('S');
        sheet.getCell('A1').value = 2;
        sheet.getCell('A2').value = 3;
        sheet.getCell('A3').value = { formula: 'A1*A2+1', result: 0 };
        await book.xlsx.writeFile(input);
        const output = path.join(dir, 'out.xlsx');
        const result = await recalculator.recalc(input, output, { timeoutMs: 30_000 });
        if (!result.ok) return fail(`LibreOffice could not recalculate a tiny workbook: ${result.error}`, INSTALL_LO);
        const back = new ExcelJS.Workbook();
        await back.xlsx.readFile(output);
        const value = (back.getWorksheet('S')?.getCell('A3').value as { result?: unknown } | null)?.result;
        if (value !== 7) return fail(`LibreOffice recalculated A1*A2+1 to ${JSON.stringify(value)}, not 7`, INSTALL_LO);
        return ok(`LibreOffice started and recalculated a workbook in ${result.durationMs} ms (A1*A2+1 = 7)`);
      } finally {
        await recalculator.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Quick: LibreOffice's soffice can be found (recalculation starts it on the first workbook). */
export function sofficeOnPath(sofficePath = process.env.SHEETBENCH_SOFFICE ?? 'soffice'): Check {
  return {
    name: 'LibreOffice',
    run: () =>
      new Promise((resolve) =>
        execFile('/bin/sh', ['-c', 'command -v "$1"', 'sh', sofficePath], (error, stdout) =>
          resolve(
            error
              ? fail(`LibreOffice (${sofficePath}) is not installed: outputs cannot be recalculated`, INSTALL_LO)
              : ok(stdout.trim()),
          ),
        ),
      ),
  };
}
