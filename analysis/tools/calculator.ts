import { all, create } from 'mathjs';
import { z } from 'zod';
import { ToolRefusal, type AnalysisTool } from './types';

const MAX_EXPRESSION_CHARS = 2000;
/** Matrices bigger than this are refused before evaluation (a `zeros(1e5, 1e5)` would exhaust the worker's memory). */
const MAX_MATRIX_CELLS = 1_000_000;

/**
 * mathjs, hardened as its security page says: the parser never uses JS eval, and the functions that could change the
 * instance or reach into it (import, createUnit, evaluate/parse/compile from inside an expression, simplify, derivative…)
 * are replaced by ones that throw. `evaluate` is kept privately before the override.
 */
function hardenedMath() {
  const math = create(all);
  const evaluate = math.evaluate.bind(math);
  const disabled = (name: string) => () => {
    throw new Error(`function ${name} is disabled in the calculator`);
  };
  const guardedMatrix = (name: 'zeros' | 'ones' | 'identity' | 'range' | 'random') => {
    const original = math[name] as (...a: unknown[]) => unknown;
    return (...a: unknown[]) => {
      const dims = a.filter((x): x is number => typeof x === 'number');
      const cells = name === 'range' ? Math.abs(((dims[1] ?? 0) - (dims[0] ?? 0)) / (dims[2] || 1)) : dims.reduce((p, d) => p * Math.max(d, 1), 1);
      if (cells > MAX_MATRIX_CELLS) throw new Error(`${name}: more than ${MAX_MATRIX_CELLS} elements is refused in the calculator (use python_execute)`);
      return original(...a);
    };
  };
  math.import({ zeros: guardedMatrix('zeros'), ones: guardedMatrix('ones'), identity: guardedMatrix('identity'), range: guardedMatrix('range') }, { override: true });
  const blocked = ['import', 'createUnit', 'reviver', 'evaluate', 'parse', 'compile', 'simplify', 'simplifyConstant', 'simplifyCore', 'derivative', 'resolve', 'rationalize', 'chain', 'leafCount', 'symbolicEqual', 'parser'];
  math.import(Object.fromEntries(blocked.map((n) => [n, disabled(n)])), { override: true });
  return { math, evaluate };
}

const { math, evaluate } = hardenedMath();

export const calculatorArgs = z.object({
  expression: z
    .string()
    .min(1)
    .max(MAX_EXPRESSION_CHARS)
    .describe('A mathjs expression: arithmetic (2^10 / 3), statistics (mean([1,2,3]), median, std, variance, quantileSeq), units (5 km to mile, 100 degF to degC). Several statements may be separated by ";" or newlines; the last value is returned.'),
});

export interface CalculatorResult {
  expression: string;
  /** The value formatted with up to 14 significant digits. */
  result: string;
  /** The value as a JSON number when it is a plain real number. */
  value?: number;
}

export const calculatorTool: AnalysisTool<z.infer<typeof calculatorArgs>, CalculatorResult> = {
  name: 'calculator',
  description: 'Evaluates a math expression safely (mathjs, never eval): arithmetic, statistics (mean, median, std, sum, min, max) and unit conversion ("12 inch to cm"). Use it for quick numbers; use python_execute for data files.',
  args: calculatorArgs,
  async run({ expression }) {
    let value: unknown;
    try {
      value = evaluate(expression);
    } catch (err) {
      throw new ToolRefusal(`calculator could not evaluate ${JSON.stringify(expression)}: ${(err as Error).message}`);
    }
    // Multi-statement expressions return a ResultSet: keep the last entry.
    if (value && typeof value === 'object' && 'entries' in value && Array.isArray((value as { entries: unknown[] }).entries)) {
      const entries = (value as { entries: unknown[] }).entries;
      value = entries[entries.length - 1];
    }
    if (typeof value === 'function') throw new ToolRefusal('the expression evaluates to a function, not a value');
    const result = math.format(value, { precision: 14 });
    return typeof value === 'number' && Number.isFinite(value) ? { expression, result, value } : { expression, result };
  },
};
