import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedModuleFiles } from '../sharedModuleFiles';

const REPO = path.resolve(__dirname, '../..');

describe('sharedModuleFiles: which test files may share a worker process', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'shared-files-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  };

  it('shares a file that does not change the process; isolates one that does, itself or through a helper', () => {
    file('test/unit/plain.test.ts', "import { x } from '../../lib/x';\nit('x', () => expect(x).toBe(1));\n");
    file('test/unit/mocked.test.ts', "vi.mock('../../lib/x');\n");
    file('test/unit/env.test.ts', "process.env.SHEETBENCH_HOME = '/tmp';\n");
    file('test/unit/envIndex.test.ts', "process.env['XDG_CACHE_HOME'] = dir;\n");
    file('test/unit/envRead.test.ts', "const home = process.env.HOME === '/root';\n");
    file('test/unit/patchedFs.test.ts', 'fs.readFile = counting;\nsyncBuiltinESMExports();\n');
    file('test/e2e/run.test.ts', "import { startE2E } from '../helpers/e2e';\n");
    file('test/cli/spawn.test.ts', "import { spawn } from 'node:child_process';\n");
    file('test/helpers/notATest.ts', 'export const y = 2;\n');
    file('test/helpers/setsKey.ts', "export const withKey = () => { process.env.JUDGE_KEY = 'k'; };\n");
    file('test/unit/viaHelper.test.ts', "import { withKey } from '../helpers/setsKey';\n");
    file('test/unit/viaPlainHelper.test.ts', "import { y } from '../helpers/notATest';\n");
    expect(sharedModuleFiles(root).sort()).toEqual([
      'test/cli/spawn.test.ts',
      'test/e2e/run.test.ts',
      'test/unit/envRead.test.ts',
      'test/unit/plain.test.ts',
      'test/unit/viaPlainHelper.test.ts',
    ]);
  });

  it('on this checkout: a file that patches a built-in module or sets a key through its helper is isolated', () => {
    const shared = sharedModuleFiles(REPO);
    expect(shared).toContain('test/unit/slowestFirstSequencer.test.ts');
    expect(shared).toContain('test/e2e/crash.test.ts');
    expect(shared).not.toContain('test/unit/planRun.test.ts');
    expect(shared).not.toContain('test/spreadsheetbench2/visualizationRun.test.ts');
  });
});
