import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What changes something process-wide: a module mock, a patched built-in module, an environment variable, the working
 * directory, the clock, a global. A test file that does, itself or through a test helper it imports, runs in a process
 * of its own.
 */
const CHANGES_THE_PROCESS =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\b|syncBuiltinESMExports|Object\.defineProperty\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env|process\.chdir|globalThis\.\w+\s*=[^=]/;

/** The test helpers a file imports (`../helpers/<name>`). */
const HELPER_IMPORT = /from '(?:\.\.\/)+helpers\/([\w.-]+)'/g;

/**
 * The test files that share a worker process, and with it the modules already imported, with the files run before them
 * (vitest's `isolate: false`): every file that does not change the process. Importing the project's modules afresh
 * costs a file 0.2-1.4 CPU-s (the Temporal worker's module graph alone 1.4): measured on the whole suite, sharing the
 * files that start servers and processes too (Temporal, workers, the CLI, Chromium, LibreOffice) took it from 1,042 to
 * 984 CPU-s and 639 to 607 s wall on 2 cores, the test files' own processes from 188 (353 CPU-s) to 47 (219 CPU-s).
 * Those files stop what they start in their `afterAll`; a process they leave running would outlive the file now, so
 * a leak shows as a process or handle that later files inherit, not as a failure of the file that leaked it. Decided
 * from each file's text and its helpers', so a new file is placed by what it does.
 */
export function sharedModuleFiles(root: string, dir = 'test'): string[] {
  const helpersChanging = changingHelpers(path.join(root, dir, 'helpers'));
  return testFiles(path.join(root, dir))
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      const helpers = [...text.matchAll(HELPER_IMPORT)].map((m) => m[1]);
      return !CHANGES_THE_PROCESS.test(text) && !helpers.some((h) => helpersChanging.has(h));
    })
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
}

/** The helpers (by module name, without `.ts`) whose own text changes the process. */
function changingHelpers(helpersDir: string): Set<string> {
  if (!existsSync(helpersDir)) return new Set();
  return new Set(
    readdirSync(helpersDir)
      .filter(
        (name) => name.endsWith('.ts') && CHANGES_THE_PROCESS.test(readFileSync(path.join(helpersDir, name), 'utf8')),
      )
      .map((name) => name.slice(0, -'.ts'.length)),
  );
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}
