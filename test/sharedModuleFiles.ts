import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Test files that change something process-wide: a module mock, a patched built-in module, an environment variable, the
 * working directory, the clock, a global. Each of them runs in a process of its own.
 */
const CHANGES_THE_PROCESS =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\b|syncBuiltinESMExports|Object\.defineProperty\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env|process\.chdir|globalThis\.\w+\s*=[^=]/;

/**
 * Test files that start servers or processes (Temporal, workers, the CLI, a browser, LibreOffice, worker threads): each
 * runs in a process of its own, so that whatever one leaves behind dies with it.
 */
const STARTS_PROCESSES =
  /node:child_process|helpers\/(temporalServer|e2e|workerProcess|cliProcess|chromium|fakeAnalysisApi|cluster|withWorkers|sandboxProcesses|libreofficeExport|orphanedSoffice|analysis|sampleRun|chartExportOwner)'|@temporalio\/(worker|testing)|startTestTemporal|LibreOffice|launchChromium|ThreadPool|new Worker\(/;

/**
 * The test files that may share a worker process, and with it the modules already imported, with the files run before
 * them (vitest's `isolate: false`): those that neither change the process nor start processes. Importing the project's
 * modules afresh costs a file about 0.6 CPU-s (measured on 51 such files: 77 CPU-s isolated, 45 shared); the suite has
 * about a hundred such files. Decided from each file's text, so a new file is placed by what it does.
 */
export function sharedModuleFiles(root: string, dir = 'test'): string[] {
  return testFiles(path.join(root, dir))
    .filter((file) => {
      const text = readFileSync(file, 'utf8');
      return !CHANGES_THE_PROCESS.test(text) && !STARTS_PROCESSES.test(text);
    })
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}
