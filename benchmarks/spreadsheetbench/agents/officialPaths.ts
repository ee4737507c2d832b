import { type SheetTask } from '../dataset';
import { taskKey } from '../../../lib/runStore/taskRecord';

/**
 * The paths the official harness shows the model (its container mounts the dataset at /mnt/data). The execution
 * activity maps them onto the sandbox's work dir, which holds only this test case's input and receives the output.
 */
export interface ModelPaths {
  input: string;
  output: string;
}

export function modelPaths(task: SheetTask, outputsName: string, testCase = 1): ModelPaths {
  const id = taskKey(task.id);
  return {
    input: `/mnt/data/${task.spreadsheet_path}/${testCase}_${id}_input.xlsx`,
    output: `/mnt/data/outputs/${outputsName}/${testCase}_${id}_output.xlsx`,
  };
}

/**
 * Binds solution code to test case N: the official literal substitution of `1_<id>_input.xlsx` / `1_<id>_output.xlsx`,
 * then the container directories onto the sandbox work dir.
 */
export function bindCodeToTestCase(
  code: string,
  task: SheetTask,
  outputsName: string,
  testCase: number,
  workDirInside: string,
): string {
  const id = taskKey(task.id);
  const dirs = modelPaths(task, outputsName, 1);
  const inDir = dirs.input.slice(0, dirs.input.lastIndexOf('/') + 1);
  const outDir = dirs.output.slice(0, dirs.output.lastIndexOf('/') + 1);
  const inside = workDirInside.endsWith('/') ? workDirInside : `${workDirInside}/`;
  return code
    .split(`1_${id}_input.xlsx`)
    .join(`${testCase}_${id}_input.xlsx`)
    .split(`1_${id}_output.xlsx`)
    .join(`${testCase}_${id}_output.xlsx`)
    .split(inDir)
    .join(inside)
    .split(outDir)
    .join(inside);
}
