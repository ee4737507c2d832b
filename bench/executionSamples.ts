/** The sample workbook and programs the sandbox execution benches (`execution-cpu.ts`, `fork-server-cpu.ts`) run. */
import path from 'node:path';

export const INPUT = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../data/sample/spreadsheet/1002/3_1002_input.xlsx',
);

export const CODE = {
  copy: "import shutil\nshutil.copy('in.xlsx', 'out.xlsx')",
  pandas:
    "import pandas as pd, openpyxl\ndf = pd.read_excel('in.xlsx')\nwb = openpyxl.load_workbook('in.xlsx')\nprint(df.shape, wb.sheetnames)",
};
