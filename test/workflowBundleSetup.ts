import { workflowBundle } from '../workers/workflowBundle';

/**
 * vitest globalSetup: the workflow bundle built (or found in .state/) once before any test file starts. On a clean
 * clone the first files start together and each built it at once (webpack + swc, 5–8 CPU-s each) where one would do.
 */
export default async function buildWorkflowBundle(): Promise<void> {
  await workflowBundle();
}
