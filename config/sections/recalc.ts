import { z } from 'zod';

export const recalcConfigSchema = z
  .strictObject({
    engine: z
      .enum(['libreoffice', 'excel', 'none'])
      .default('libreoffice')
      .describe(
        'What recalculates output workbooks before scoring (`excel`: Windows, over COM; `none`: skip, no ' +
          'recalc queue).',
      ),
    timeoutMs: z.number().int().positive().default(120_000).describe("One workbook's recalculation time limit."),
  })
  .describe('Recalculation of output workbooks, so formulas have values when scored.');
