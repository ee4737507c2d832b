import { describe, expect, it } from 'vitest';
import { requestedOutputInstruction } from '../../analysis/conversation/prompts';
import { requestedChartKind, requestedOutputs, savedRequested } from '../../analysis/grounding/requestedOutput';

/** The analysis suite's questions (data/analysis/tasks.json) and what each asks the turn to save. */
const SUITE: Array<[string, 'chart' | 'table' | undefined]> = [
  ['What is the total amount in sales.csv?', undefined],
  ['What is the average number of units per row in sales.csv (2 decimals)?', undefined],
  ['Make a bar chart of the total amount by region from sales.csv.', 'chart'],
  ['Plot temperature by day from weather.csv as a line chart.', 'chart'],
  ['Plot ice_cream_sales against temperature from weather.csv.', 'chart'],
  ['Show the share of units by product in sales.csv as a pie chart.', 'chart'],
  ['Make a table of the total amount per month from sales.csv.', 'table'],
  ['Plot price and its 7-day moving average from stock.csv on one line chart.', 'chart'],
  ['What is the total amount per region in sales.csv?', undefined],
  ['Download the items from http://127.0.0.1:1/items.json; how many have a score above 250?', undefined],
];

describe('the chart or table a question asks for', () => {
  it("reads the suite's questions: charts, plots and the table asked for; numbers asked for save nothing", () => {
    for (const [question, asked] of SUITE) expect(requestedOutputs(question), question).toEqual(asked ? [asked] : []);
  });

  it('a table named as where the data is is not a table asked for; one asked for as a table is', () => {
    expect(requestedOutputs('What is the total amount in the sales table?')).toEqual([]);
    expect(requestedOutputs('Give me the totals per region as a table.')).toEqual(['table']);
  });

  it('a table and a chart asked for together are both asked for; a chart of the table holding the data is a chart', () => {
    expect(requestedOutputs('Make a table of the total amount per region and a bar chart of it.')).toEqual([
      'chart',
      'table',
    ]);
    expect(requestedOutputs('Group sales.csv by region, show a summary table and plot it.')).toEqual([
      'chart',
      'table',
    ]);
    expect(requestedOutputs('Make a bar chart of the table in sales.csv.')).toEqual(['chart']);
  });

  it('the chart kind named, or scatter for one thing against another', () => {
    expect(requestedChartKind('Make a bar chart of the total amount by region')).toBe('bar');
    expect(requestedChartKind('Show the share of units by product as a pie chart.')).toBe('pie');
    expect(requestedChartKind('Plot ice_cream_sales against temperature')).toBe('scatter');
    expect(requestedChartKind('Plot the amount by region')).toBeUndefined();
  });

  it('a saved image or Vega-Lite spec is a chart; a table is no chart, a chart no table', () => {
    expect(savedRequested('chart', ['image'])).toBe(true);
    expect(savedRequested('chart', ['vega_lite'])).toBe(true);
    expect(savedRequested('chart', ['table'])).toBe(false);
    expect(savedRequested('table', ['bar_chart'])).toBe(false);
    expect(savedRequested('table', ['table'])).toBe(true);
    expect(savedRequested('chart', [])).toBe(false);
  });

  it('the request names the helper call to make, with the kind asked for', () => {
    expect(requestedOutputInstruction('chart', 'bar')).toContain("save_chart(df, kind='bar', x=..., y=..., title=...)");
    expect(requestedOutputInstruction('chart')).toContain("(kind: 'bar', 'line', 'scatter' or 'pie')");
    expect(requestedOutputInstruction('table')).toContain('save_table(df, title=...)');
  });
});
