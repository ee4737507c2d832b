import type { CheckResult, Problem } from './checks';
import type { RegionRead } from './regionCells';
import { describeValue } from '../../../workbook/cellValue';
import { crashHint } from './crashHints';

const MAX_ERROR_LINES = 12;
const SAMPLE_CELLS = 12;

/**
 * The repair request after a failed check: what went wrong on which test case (the traceback's last lines, the
 * answer cells as written), then the ask for the whole corrected function.
 */
export function repairMessage(
  check: CheckResult,
  cases: number,
  sample?: { testCase: number; region: RegionRead },
): string {
  const lines = [
    `Your solve(wb) was run on each of the ${cases} input workbooks (same layout, different data) and checked. It did not pass:`,
    ...check.problems.map(describe),
  ];
  if (sample?.region.cells.length) {
    const cells = sample.region.cells
      .slice(0, SAMPLE_CELLS)
      .map((c) => `${c.address}: ${c.uncachedFormula ? '(formula, no value)' : describeValue(c.value)}`);
    const more =
      sample.region.cells.length > SAMPLE_CELLS ? ` … (${sample.region.cells.length - SAMPLE_CELLS} more)` : '';
    lines.push('', `The answer cells after solve(wb) on input ${sample.testCase}: ${cells.join(' | ')}${more}`);
  }
  lines.push(
    '',
    'Fix the function. Reply with the complete corrected solve(wb) in one ```python block and nothing else.',
  );
  return lines.join('\n');
}

/** A reply without usable code: the same ask, with why. */
export function noCodeMessage(problem: string): string {
  return `Your reply could not be run: ${problem}.\nReply with one \`\`\`python block that defines solve(wb), and nothing else.`;
}

function describe(p: Problem): string {
  const where = p.testCase === undefined ? 'all inputs' : `input ${p.testCase}`;
  if (p.kind === 'crashed') {
    const hint = crashHint(p.detail);
    return `- ${where}: it raised an error:\n${indent(tail(p.detail))}${hint ? `\n  Hint: ${hint}` : ''}`;
  }
  return `- ${where}: ${p.detail}`;
}

function tail(text: string): string {
  const lines = text.split('\n');
  return lines.length > MAX_ERROR_LINES ? ['…', ...lines.slice(-MAX_ERROR_LINES)].join('\n') : text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
