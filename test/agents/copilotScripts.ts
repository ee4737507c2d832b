import type { ScriptRule } from '../../lib/scriptedLlm';
import { byCallKey, python } from './harness';

export const UNDERSTANDING =
  '## 1. Core Objective\nMonthly totals.\n## 2. Input Data Location\nAmounts K7:K57, dates L7:L57.\n## 3. Output Requirements\nFormulas in C4:C15.\n## 4. Business Logic\nSUMIFS per month.';
export const PLAN =
  '### Step 1: Load\n### Step 2: Locate\n### Step 3: Extract\n### Step 4: SUMIFS by month\n### Step 5: Write formulas\n### Step 6: Save';

const ALL_ZEROS_CODE = `import openpyxl
wb = openpyxl.load_workbook(input_path)
ws = wb['Sheet1']
for r in range(4, 16):
    ws.cell(r, 3).value = 0
wb.save(output_path)`;

const sumifs = (guard: string) => `import os, openpyxl
wb = openpyxl.load_workbook(input_path)
${guard}ws = wb['Sheet1']
for r in range(4, 16):
    ws.cell(r, 3).value = f'=SUMIFS($K$7:$K$57,$L$7:$L$57,">="&$B{r},$L$7:$L$57,"<="&EOMONTH($B{r},0))'
wb.save(output_path)`;

/** Corrected by validation, but fails on test case 2 (so stage 6 needs one revision there). */
export const CORRECTED_CODE = sumifs(
  "if os.path.basename(input_path).startswith('2_'):\n    raise ValueError('unexpected layout in this copy')\n",
);
export const REVISED_CODE = sumifs('');

/** 57105: implementation writes zeros → validation sees ALL_ZEROS and corrects → tc2 fails once → revision fixes it. */
export function copilot57105(): ScriptRule[] {
  return byCallKey('57105', {
    'copilot/understand': UNDERSTANDING,
    'copilot/plan': PLAN,
    'copilot/implement': python(ALL_ZEROS_CODE),
    'copilot/validate': (r) =>
      /ALL_ZEROS/.test(r.lastUser)
        ? `VALIDATION FAILED: every value is 0.\n${python(CORRECTED_CODE)}`
        : 'VALIDATION PASSED',
    'copilot/revise-tc2-1': python(REVISED_CODE, 'The guard was wrong.'),
  });
}

const STRIP_QUOTES = `import openpyxl
wb = openpyxl.load_workbook(input_path)
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str):
                c.value = c.value.replace('"', '')
wb.save(output_path)`;

/** 79-7: a clean pass through all stages. */
export function copilot797(): ScriptRule[] {
  return byCallKey('79-7', {
    'copilot/understand': '## 1. Core Objective\nRemove double quotes.',
    'copilot/plan': '### Step 1: replace quotes everywhere',
    'copilot/implement': python(STRIP_QUOTES),
    'copilot/validate': 'VALIDATION PASSED',
  });
}

/**
 * 39604, bad input at every turn: code in the wrong language, a validation reply without code, a truncated revision
 * (finish_reason length), then a reply that is not text (null content) — the revision budget ends each test case.
 */
export function copilot39604BadInput(): ScriptRule[] {
  return [
    {
      name: '39604:not-text',
      match: { callKey: /\/39604\/copilot\/revise-tc\d-2$/ },
      fault: { kind: 'malformed', variant: 'null_content' },
    },
    ...byCallKey('39604', {
      'copilot/understand': '## 1. Core Objective\nAdd a condition.',
      'copilot/plan': '### Step 1: formula',
      'copilot/implement': 'Use this macro:\n```vba\nSub Fix()\n  Range("C4").Formula = "=0"\nEnd Sub\n```\n',
      'copilot/validate': 'I am not able to fix this.',
    }),
    {
      name: '39604:truncated',
      match: { callKey: /\/39604\/copilot\/revise-tc\d-1$/ },
      reply: () => ({ text: '```python\nimport openpyxl\nwb = openpyxl.load_wor', finishReason: 'length' }),
    },
  ];
}
