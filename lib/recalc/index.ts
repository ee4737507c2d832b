import type { RecalcEngine, Recalculator } from './types';
import { LibreOfficeRecalculator, type LibreOfficeOptions } from './libreoffice';
import { ExcelRecalculator, type ExcelOptions } from './excel';

export type { RecalcEngine, Recalculator, RecalcResult } from './types';
export { LibreOfficeRecalculator, type LibreOfficeOptions } from './libreoffice';
export { ExcelRecalculator, type ExcelOptions } from './excel';

export interface RecalculatorOptions {
  libreoffice?: LibreOfficeOptions;
  excel?: ExcelOptions;
}

/** One recalculator per worker process; call close() at shutdown. LibreOffice starts lazily on the first file. */
export function createRecalculator(engine: RecalcEngine, opts: RecalculatorOptions = {}): Recalculator {
  switch (engine) {
    case 'libreoffice':
      return LibreOfficeRecalculator.create(opts.libreoffice);
    case 'excel':
      return ExcelRecalculator.create(opts.excel);
  }
}
