/** The arguments of `sheetbench run` over a dataset with a model endpoint, a run id and an output folder. */
export function runArgs(o: { dataset: string; baseUrl: string; model: string; runId: string; out: string }): string[] {
  return [
    'run',
    '--dataset',
    o.dataset,
    '--base-url',
    o.baseUrl,
    '--model',
    o.model,
    '--run-id',
    o.runId,
    '--out',
    o.out,
  ];
}
