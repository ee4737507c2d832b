/** The Temporal server's Prometheus counters (dev server started with `--metrics-port`), summed over their labels. */
export async function serverCounters(metricsPort: number, names: RegExp): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? ([\d.e+-]+)$/.exec(line);
    if (m && names.test(m[1])) out[m[1]] = (out[m[1]] ?? 0) + Number(m[3]);
  }
  return out;
}
