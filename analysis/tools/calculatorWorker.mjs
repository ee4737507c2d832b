// Evaluates calculator expressions in a worker thread with its own heap limit, so an expression that would need
// gigabytes (ones([1e5, 1e5])) or run long ends this thread, never the Temporal worker. Plain JS: it must load as a
// worker in every runtime (node, tsx, vitest) without a TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { all, create } from 'mathjs';

/**
 * mathjs, hardened as its security page says: the parser never uses JS eval, and the functions that could change the
 * instance or reach into it are replaced by ones that throw. `evaluate` is kept privately before the override.
 */
function hardenedMath() {
  const math = create(all);
  const evaluate = math.evaluate.bind(math);
  const disabled = (name) => () => {
    throw new Error(`function ${name} is disabled in the calculator`);
  };
  const blocked = [
    'import',
    'createUnit',
    'reviver',
    'evaluate',
    'parse',
    'compile',
    'simplify',
    'simplifyConstant',
    'simplifyCore',
    'derivative',
    'resolve',
    'rationalize',
    'chain',
    'leafCount',
    'symbolicEqual',
    'parser',
  ];
  math.import(Object.fromEntries(blocked.map((n) => [n, disabled(n)])), { override: true });
  return { math, evaluate };
}

const { math, evaluate } = hardenedMath();

function run(expression) {
  let value = evaluate(expression);
  // Multi-statement expressions return a ResultSet: keep the last entry.
  if (value && typeof value === 'object' && Array.isArray(value.entries))
    value = value.entries[value.entries.length - 1];
  if (typeof value === 'function') throw new Error('the expression evaluates to a function, not a value');
  const result = math.format(value, { precision: 14 });
  return typeof value === 'number' && Number.isFinite(value) ? { result, value } : { result };
}

parentPort.postMessage({ ready: true });
parentPort.on('message', ({ id, expression }) => {
  try {
    parentPort.postMessage({ id, ok: true, ...run(expression) });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
