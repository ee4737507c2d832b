import { z } from 'zod';

export const artifactsConfigSchema = z
  .strictObject({
    root: z
      .string()
      .optional()
      .describe(
        'Where this host mounts the run store: runs started here pass their folder relative to it, and ' +
          'workers resolve relative run folders against their own root (lib/runStore/artifactsRoot.ts). Unset: ' +
          'absolute paths. Env SHEETBENCH_ARTIFACTS_ROOT.',
      ),
  })
  .describe('The run store shared by hosts.');
