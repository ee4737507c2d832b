import type { Config } from '../config/schema';
import type { SandboxFactory } from '../lib/sandbox/types';

/** What the worker gives its activities: the config and lazily created, process-wide resources. */
export interface WorkerDeps {
  config: Config;
  sandboxFactory(): Promise<SandboxFactory>;
}
