import { lstat, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { z } from 'zod';
import { resolveInWorkspace } from '../workspace/paths';
import { readWholeInWorkspace } from '../workspace/safeFiles';
import { MAX_DATA_FILE_BYTES, tableShape } from './dataFiles';
import {
  MANIFEST_FILE,
  visualizationManifestSchema,
  visualizationOutputSchema,
  type VisualizationOutput,
} from './schema';

const IMAGE_EXTENSIONS = new Set(['.png', '.svg', '.jpg', '.jpeg', '.gif', '.webp']);

export interface ManifestCheck {
  /** Outputs that passed every check (ids filled in when missing). */
  outputs: VisualizationOutput[];
  /** One line per problem, naming the output and what to fix. */
  errors: string[];
}

/** Reads and checks visualization_manifest.json and every file it names. No manifest → nothing to show, no errors. */
export async function validateManifest(workspaceDir: string): Promise<ManifestCheck> {
  const exists = await lstat(join(workspaceDir, MANIFEST_FILE)).then(
    () => true,
    () => false,
  );
  if (!exists) return { outputs: [], errors: [] };
  let text: string;
  try {
    text = (await readWholeInWorkspace(workspaceDir, MANIFEST_FILE, MAX_DATA_FILE_BYTES)).toString('utf8');
  } catch (err) {
    return { outputs: [], errors: [`${MANIFEST_FILE}: ${(err as Error).message}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { outputs: [], errors: [`${MANIFEST_FILE} is not valid JSON: ${(err as Error).message}`] };
  }
  const manifest = visualizationManifestSchema.safeParse(json);
  if (!manifest.success)
    return {
      outputs: [],
      errors: [`${MANIFEST_FILE}: ${z.prettifyError(manifest.error)} (expected {"version": "1.0", "outputs": [...]})`],
    };
  const outputs: VisualizationOutput[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of manifest.data.outputs.entries()) {
    const label = `outputs[${index}]${raw && typeof raw === 'object' && 'id' in raw ? ` (id ${JSON.stringify(raw.id)})` : ''}`;
    const parsed = visualizationOutputSchema.safeParse(raw);
    if (!parsed.success) {
      errors.push(`${label}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
      continue;
    }
    const output = { ...parsed.data, id: parsed.data.id ?? `output-${index + 1}` } as VisualizationOutput;
    if (seen.has(output.id!)) {
      errors.push(`${label}: duplicate id ${JSON.stringify(output.id)}; ids must be unique`);
      continue;
    }
    seen.add(output.id!);
    const problems = await checkFiles(workspaceDir, output).catch((err: Error) => [err.message]);
    if (problems.length) errors.push(...problems.map((p) => `${label}: ${p}`));
    else outputs.push(output);
  }
  return { outputs, errors };
}

async function checkFiles(root: string, output: VisualizationOutput): Promise<string[]> {
  switch (output.type) {
    case 'table':
      return missingColumns(root, output.dataFile, output.config.columns ?? []);
    case 'line_chart':
    case 'bar_chart':
    case 'scatter': {
      const { xColumn, yColumn, groupBy, colorColumn } = output.config;
      const ys = Array.isArray(yColumn) ? yColumn : [yColumn];
      return missingColumns(root, output.dataFile, [
        xColumn,
        ...ys,
        ...[groupBy, colorColumn].filter((c): c is string => !!c),
      ]);
    }
    case 'pie_chart':
      return missingColumns(root, output.dataFile, [output.config.labelColumn, output.config.valueColumn]);
    case 'image':
      return checkImage(root, output.file);
    case 'vega_lite':
      return checkVegaLite(root, output.spec, output.specFile);
  }
}

async function missingColumns(root: string, dataFile: string, wanted: string[]): Promise<string[]> {
  const text = (await readWholeInWorkspace(root, dataFile, MAX_DATA_FILE_BYTES)).toString('utf8');
  const shape = tableShape(text, dataFile);
  const missing = wanted.filter((c) => !shape.columns.includes(c));
  if (!missing.length) return [];
  return [
    `column(s) ${missing.map((c) => JSON.stringify(c)).join(', ')} not in ${dataFile} (its columns: ${shape.columns.map((c) => JSON.stringify(c)).join(', ')})`,
  ];
}

async function checkImage(root: string, file: string): Promise<string[]> {
  if (!IMAGE_EXTENSIONS.has(extname(file).toLowerCase()))
    return [`image ${file} must be one of ${[...IMAGE_EXTENSIONS].join(', ')}`];
  const info = await stat(await resolveInWorkspace(root, file)).catch(() => null); // no such file: reported as missing below
  if (!info?.isFile() || info.size === 0) return [`image file ${file} does not exist or is empty`];
  return [];
}

async function checkVegaLite(
  root: string,
  spec: Record<string, unknown> | undefined,
  specFile: string | undefined,
): Promise<string[]> {
  let value: unknown = spec;
  if (specFile) {
    const text = (await readWholeInWorkspace(root, specFile, MAX_DATA_FILE_BYTES)).toString('utf8');
    try {
      value = JSON.parse(text);
    } catch (err) {
      return [`specFile ${specFile} is not valid JSON: ${(err as Error).message}`];
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['the Vega-Lite spec must be a JSON object'];
  const problems: string[] = [];
  for (const url of dataUrls(value)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/') || url.split('/').includes('..')) {
      problems.push(
        `data.url ${JSON.stringify(url)} must be a workspace-relative file (no http(s), absolute paths or ..)`,
      );
    } else if (!(await stat(await resolveInWorkspace(root, url)).catch(() => null))?.isFile()) {
      // no such file: reported below
      problems.push(`data.url ${JSON.stringify(url)} does not exist in the workspace`);
    }
  }
  return problems;
}

/** Every `data: {url}` anywhere in a spec (layers, concat, facets). */
function dataUrls(node: unknown): string[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap(dataUrls);
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'data' && value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string')
      out.push((value as { url: string }).url);
    out.push(...dataUrls(value));
  }
  return out;
}
