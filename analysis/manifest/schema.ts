import { z } from 'zod';

/** The file the sandbox helpers (and the model, by hand) write in the workspace root. */
export const MANIFEST_FILE = 'visualization_manifest.json';

const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..') && !/^[a-z][a-z0-9+.-]*:/i.test(p), {
    message: 'must be a path relative to the workspace (no leading /, no .., no URL)',
  });

const base = {
  id: z.string().min(1).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** The execution that produced the output (links a chart to its code in the debug view). */
  producedBy: z.string().optional(),
};

const columnOrColumns = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const xyConfig = z.object({
  xColumn: z.string().min(1),
  yColumn: columnOrColumns,
  xLabel: z.string().optional(),
  yLabel: z.string().optional(),
  groupBy: z.string().optional(),
  /** Alias of groupBy. */
  colorColumn: z.string().optional(),
  xType: z.enum(['quantitative', 'temporal', 'nominal']).optional(),
  stacked: z.boolean().optional(),
  sort: z.enum(['ascending', 'descending', 'none']).optional(),
});

export const tableOutputSchema = z.object({
  ...base,
  type: z.literal('table'),
  dataFile: relativePath,
  config: z
    .object({ columns: z.array(z.string().min(1)).optional(), maxRows: z.number().int().positive().optional() })
    .default({}),
});

const xyChart = <T extends 'line_chart' | 'bar_chart' | 'scatter'>(type: T) =>
  z.object({ ...base, type: z.literal(type), dataFile: relativePath, config: xyConfig });

export const pieChartOutputSchema = z.object({
  ...base,
  type: z.literal('pie_chart'),
  dataFile: relativePath,
  config: z.object({ labelColumn: z.string().min(1), valueColumn: z.string().min(1) }),
});

export const imageOutputSchema = z.object({ ...base, type: z.literal('image'), file: relativePath });

/** A Vega-Lite spec inline or in a file; its `data.url` may only name a workspace file. */
export const vegaLiteOutputSchema = z
  .object({
    ...base,
    type: z.literal('vega_lite'),
    spec: z.record(z.string(), z.unknown()).optional(),
    specFile: relativePath.optional(),
  })
  .refine((o) => (o.spec === undefined) !== (o.specFile === undefined), {
    message: 'give exactly one of spec or specFile',
  });

export const visualizationOutputSchema = z.union([
  tableOutputSchema,
  xyChart('line_chart'),
  xyChart('bar_chart'),
  xyChart('scatter'),
  pieChartOutputSchema,
  imageOutputSchema,
  vegaLiteOutputSchema,
]);

export const visualizationManifestSchema = z.object({
  version: z.literal('1.0'),
  outputs: z.array(z.unknown()).default([]),
});

export type VisualizationOutput = z.infer<typeof visualizationOutputSchema>;
export type VisualizationType = VisualizationOutput['type'];
export interface VisualizationManifest {
  version: '1.0';
  outputs: VisualizationOutput[];
}
