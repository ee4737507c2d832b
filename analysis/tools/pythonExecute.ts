import { z } from 'zod';
import type { VisualizationOutput } from '../manifest/schema';
import type { ExecutionReport } from './executionReport';
import { ToolRefusal, type AnalysisTool } from './types';

export const pythonExecuteArgs = z.object({
  code: z.string().min(1).describe('Python 3 code. Variables persist between calls of this conversation. Print what you need to see; the value of a final expression is shown.'),
  packages: z.array(z.string()).optional().describe('Packages the code needs; only the allowed, pre-installed ones (nothing is installed at run time)'),
  workingDir: z.string().optional().describe('Sub-folder of the workspace to run in (default: the workspace root)'),
  timeout: z.number().positive().optional().describe('Seconds (capped by the configured execution limit)'),
});

export interface PythonExecuteReport extends ExecutionReport {
  /** Valid outputs of visualization_manifest.json (tables, charts, images) after this execution. */
  visualizations?: VisualizationOutput[];
  /** What is wrong with the manifest or its data files; fix and re-run. */
  manifestErrors?: string[];
}

export const pythonExecuteTool: AnalysisTool<z.infer<typeof pythonExecuteArgs>, PythonExecuteReport> = {
  name: 'python_execute',
  description: 'pending',
  args: pythonExecuteArgs,
  async run() {
    throw new ToolRefusal('python_execute is not implemented yet on this branch');
  },
};
