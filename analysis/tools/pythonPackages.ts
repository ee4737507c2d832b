import type { AnalysisConfig } from '../../config/schema';
import { ToolRefusal } from './types';

/** Distribution names whose import name differs. */
const IMPORT_NAMES: Record<string, string> = {
  'scikit-learn': 'sklearn',
  beautifulsoup4: 'bs4',
  pillow: 'PIL',
  'python-dateutil': 'dateutil',
};

/**
 * The import names of the requested packages, or a refusal naming the ones off the allow-list. Nothing is ever
 * installed at run time: allowed packages are pre-installed in the sandbox's read-only venv.
 */
export function allowedImports(requested: string[] | undefined, config: AnalysisConfig): string[] {
  const names = (requested ?? [])
    .map(
      (p) =>
        p
          .trim()
          .toLowerCase()
          .split(/[<>=!~[; ]/)[0],
    )
    .filter(Boolean);
  const allowed = new Set(config.allowedPackages.map((p) => p.toLowerCase()));
  const refused = names.filter((n) => !allowed.has(n));
  if (refused.length) {
    throw new ToolRefusal(
      `package(s) ${refused.join(', ')} are not allowed in the sandbox, and nothing can be installed at run time (there is no network). ` +
        `Allowed, already installed: ${config.allowedPackages.join(', ')}. Rewrite the code with those or with the standard library.`,
    );
  }
  return names.map((n) => IMPORT_NAMES[n] ?? n);
}
