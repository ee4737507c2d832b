import { describe, expect, it } from 'vitest';
import { answerPlaceholder } from '../../analysis/grounding/placeholder';

describe('a placeholder where the answer’s value should be', () => {
  it("the 1.5B's a09: '[insert the count here]'", () => {
    expect(answerPlaceholder('The number of items with a score above 250 is **[insert the count here]**.')).toBe(
      '[insert the count here]',
    );
  });

  it('other stand-ins: [your result], <total>, [number]', () => {
    expect(answerPlaceholder('The mean is [your result].')).toBe('[your result]');
    expect(answerPlaceholder('Total: <total>')).toBe('<total>');
    expect(answerPlaceholder('There are [number] items.')).toBe('[number]');
  });

  it('not a placeholder: values, markdown links, footnotes, HTML tags, a list in brackets', () => {
    expect(answerPlaceholder('The total amount is **1,988**.')).toBeUndefined();
    expect(answerPlaceholder('See [the result table](viz/table-1.csv).')).toBeUndefined();
    expect(answerPlaceholder('The mean is 4.42 [1].')).toBeUndefined();
    expect(answerPlaceholder('<b>4</b> items')).toBeUndefined();
    expect(answerPlaceholder('The top 5 are [item-b, item-i, item-c, item-j, item-g].')).toBeUndefined();
  });
});
