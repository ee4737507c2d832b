/**
 * The output a question asks the turn to save, a chart or a table, and whether the turn saved one. The 1.5B under the
 * `direct` pattern printed the totals for "Make a bar chart of the total amount by region" and "Make a table of the
 * total amount per month" and answered in prose (a markdown table), saving neither: the user asked for a chart they can
 * see and a table they can download. Pure functions, no I/O.
 */

export type RequestedOutput = 'chart' | 'table';

/** The chart kinds save_chart takes, as the question may name them. */
export type ChartKind = 'bar' | 'line' | 'scatter' | 'pie';

const CHART = /\b(?:charts?|plots?|plotted|plotting|graphs?|histograms?|visuali[sz]e|visuali[sz]ation|diagram)\b/i;
/** A table asked for: "make/create/show/give … a table", "as a table"; not "the table in sales.csv" alone. */
const TABLE =
  /\b(?:make|create|build|produce|prepare|give|show|return|output|save|display|generate|tabulate)\b[^.?!\n]*\btables?\b|\b(?:as|in|into) a table\b|\btabulate\b/i;

const OUTPUT_TYPES: Record<RequestedOutput, ReadonlySet<string>> = {
  // An image is a chart (a figure the kernel captured); a Vega-Lite spec too.
  chart: new Set(['bar_chart', 'line_chart', 'scatter', 'pie_chart', 'image', 'vega_lite']),
  table: new Set(['table']),
};

/**
 * A table asked for beside a chart: "a table", "a summary table", "as a table" ("a chart of the table in sales.csv"
 * names where the data is: no table asked for).
 */
const TABLE_TOO = /\b(?:a|an|one)\s+(?:[\w-]+\s+){0,2}tables?\b|\b(?:as|in|into) a table\b|\btabulate\b/i;

/**
 * What the question asks the turn to save: a chart, a table, or both ("make a table of the totals and a bar chart of
 * them"; before the request for both was read, such a turn was checked for its chart only).
 */
export function requestedOutputs(question: string): RequestedOutput[] {
  const chart = CHART.test(question);
  const table = TABLE.test(question) && (!chart || TABLE_TOO.test(question));
  return [...(chart ? (['chart'] as const) : []), ...(table ? (['table'] as const) : [])];
}

/** The kind of chart the question names, if any ("a bar chart", "as a pie chart", "plot … against …"). */
export function requestedChartKind(question: string): ChartKind | undefined {
  const named = /\b(bar|line|scatter|pie)\b/i.exec(question)?.[1];
  if (named) return named.toLowerCase() as ChartKind;
  return /\bagainst\b/i.test(question) ? 'scatter' : undefined;
}

/** Whether one of the saved outputs' types (manifest `type`s) is the output asked for. */
export function savedRequested(asked: RequestedOutput, savedTypes: string[]): boolean {
  return savedTypes.some((t) => OUTPUT_TYPES[asked].has(t));
}
