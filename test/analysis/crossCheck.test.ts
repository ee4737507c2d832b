import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithProgram, pickByOperation } from '../../analysis/grounding/crossCheck';
import { isolatedPython, runArguments } from '../../analysis/conversation/isolatedProgram';
import {
  SECOND_PROGRAM_AGENT,
  SECOND_PROGRAM_COMPUTES_ONLY,
  secondProgramRequest,
} from '../../analysis/conversation/crossCheckPrompts';
import { kernelScriptPath, sandboxPythonPath } from '../../lib/sandbox/paths';

/** Runs cells in a fresh kernel (lib/sandbox/kernel.py, the sandbox's Python, replies on stdout): their replies. */
function kernelReplies(cells: string[], cwd: string): Array<{ stdout: string; error: string }> {
  const input = cells.map((code, i) => JSON.stringify({ id: i + 1, op: 'exec', code, timeout: 120 })).join('\n');
  const out = execFileSync(sandboxPythonPath(), [kernelScriptPath, '1'], {
    input: `${input}\n`,
    cwd,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, MPLBACKEND: 'Agg' },
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { id?: number; stdout: string; error: string })
    .filter((r) => typeof r.id === 'number');
}

describe('an answer compared with a second program', () => {
  it('agrees when every number of the answer is one the program printed, to the precision written', () => {
    expect(compareWithProgram('The total is **1,988**.', 'total: 1988.0', 'What is the total amount?')).toEqual({
      verdict: 'agree',
      how: 'answer-in-program',
    });
    expect(compareWithProgram('The average is 4.42.', '4.416666666', 'average (2 decimals)?').verdict).toBe('agree');
  });

  it('agrees when every number the program printed is in the answer, which says more', () => {
    expect(compareWithProgram('1988 in total over 24 rows.', 'Total amount: 1988', 'total?')).toEqual({
      verdict: 'agree',
      how: 'program-in-answer',
    });
  });

  it('disagrees on counts answered for sums, naming the numbers the program did not compute', () => {
    expect(compareWithProgram('North: **2**, south: **1**.', 'north 15\nsouth 32', 'total per region?')).toEqual({
      verdict: 'disagree',
      unmatched: ['2', '1'],
    });
  });

  it("leaves out numbers the question gives ('2 decimals', 'top 5')", () => {
    expect(compareWithProgram('Rounded to 2 decimals: 4.42', '4.42', 'average, 2 decimals?').verdict).toBe('agree');
    expect(compareWithProgram('The top 5 are listed.', '5', 'name the top 5')).toMatchObject({
      verdict: 'inconclusive',
    });
  });

  it('finds nothing to compare: no number in the answer, none printed, or a dump of hundreds', () => {
    expect(compareWithProgram('Apples lead.', '12', 'which?')).toMatchObject({ verdict: 'inconclusive' });
    expect(compareWithProgram('It is 47.', 'done', 'total?')).toMatchObject({
      verdict: 'inconclusive',
      why: 'the second program printed no number',
    });
    const dump = Array.from({ length: 500 }, (_, i) => String(i)).join('\n');
    expect(compareWithProgram('It is 42.', dump, 'total?')).toMatchObject({
      verdict: 'inconclusive',
      why: 'the second program printed 500 numbers, not a result',
    });
  });
});

describe('the operation check between two disagreeing programs', () => {
  const counts = "print(df['region'].value_counts())";
  const sums = "print(df.groupby('region')['amount'].sum())";
  it('trusts the one that summed when the other counted rows for a total', () => {
    expect(pickByOperation('total amount per region?', [counts], [sums])).toMatchObject({
      pick: 'second',
      first: { used: 'value_counts', kind: 'aggregate' },
    });
    expect(pickByOperation('total amount per region?', [sums], [counts]).pick).toBe('first');
  });
  it('cannot choose when both did the right operation, or both the wrong one', () => {
    expect(pickByOperation('total amount?', [sums], [sums]).pick).toBe('neither');
    expect(pickByOperation('total amount?', [counts], [counts]).pick).toBe('neither');
  });
});

describe("the second program's own namespace", () => {
  it("wraps only the second program's python_execute code, keeping the other arguments", () => {
    const args = { code: 'print(1)', timeout: 5 };
    expect(runArguments('main', 'python_execute', args)).toBe(args);
    expect(runArguments(SECOND_PROGRAM_AGENT, 'node_execute', args)).toBe(args);
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', args)).toEqual({
      code: isolatedPython('print(1)'),
      timeout: 5,
    });
  });
  it("runs code holding quotes, backslashes, non-ASCII and line breaks as written, without the caller's names", () => {
    const code = 'print("a\\tb", \'é\')\n# """ end\nprint(\'x\' in dir())';
    const out = execFileSync('/usr/bin/python3', ['-c', `x = 1\n${isolatedPython(code)}`], { encoding: 'utf8' });
    expect(out).toBe('a\tb é\nFalse\n');
  });
  it("a failing second program's error names its own failing line, with its text (a15: KeyError after 4 omitted frames)", () => {
    const code = [
      'import pandas as pd',
      's = pd.Series([1.0, 2.0], index=[0, 1])',
      "last = s.loc['2024-02-29']",
      'print(last)',
    ].join('\n');
    const [failed, names] = kernelReplies(
      [isolatedPython(code), "print(sorted(k for k in globals() if not k.startswith('__')))"],
      os.tmpdir(),
    );
    expect(failed.error).toContain('File "<second-program>", line 3');
    expect(failed.error).toContain("last = s.loc['2024-02-29']");
    expect(failed.error).toMatch(/KeyError: '2024-02-29'$/);
    expect(failed.error).not.toContain('omitted');
    // The wrapper leaves no name in the analysis's namespace.
    expect(names.stdout).toBe('[]\n');
    const syntax = kernelReplies([isolatedPython('x = (1,\nprint(x')], os.tmpdir())[0];
    expect(syntax.error).toContain('<second-program>');
    expect(syntax.error).toContain('SyntaxError');
  });

  it('computes only: what it plots or saves leaves no figure and no file, the open figures of the analysis stay', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-second-plot-'));
    const plots = [
      'import pandas as pd',
      'import matplotlib.pyplot as plt',
      "totals = pd.DataFrame({'region': ['east', 'west'], 'amount': [647, 525]}).groupby('region')['amount'].sum()",
      "ax = totals.plot(kind='bar', title='Total')",
      "ax.figure.savefig('chart.png')",
      "plt.savefig('chart2.png')",
      'plt.show()',
      "save_chart(totals, 'bar', 'region', 'amount')",
      'print(totals.to_dict())',
    ].join('\n');
    const [analysis, second, after] = kernelReplies(
      [
        'import matplotlib.pyplot as plt\nfig = plt.figure()\nfig.add_subplot().plot([1, 2])\nprint(plt.get_fignums())',
        isolatedPython(plots),
        'import matplotlib.figure\nfig.savefig("kept.png")\nprint(plt.get_fignums(), matplotlib.figure.Figure.savefig.__name__, plt.show.__name__)',
      ],
      dir,
    );
    expect(analysis.stdout).toBe('[1]\n');
    expect(second.error).toBe('');
    expect(second.stdout).toBe("{'east': 647, 'west': 525}\n");
    // Only the analysis's figure is open; savefig and show are matplotlib's again (the analysis's savefig writes).
    expect(after.error).toBe('');
    expect(after.stdout).toBe('[1] savefig show\n');
    expect(readdirSync(dir)).toEqual(['kept.png']);
  });

  it("its request restates, after the question, that it computes only (the 1.5B plotted for a10's bar chart)", () => {
    const text = secondProgramRequest('Make a bar chart of the total amount by region from sales.csv.');
    expect(text.indexOf(SECOND_PROGRAM_COMPUTES_ONLY)).toBeGreaterThan(text.indexOf('Make a bar chart'));
    expect(SECOND_PROGRAM_COMPUTES_ONLY).toMatch(/Do not plot/);
  });

  it('leaves arguments without code as the model sent them (the tool reports them)', () => {
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', { code: 3 })).toEqual({ code: 3 });
    expect(runArguments(SECOND_PROGRAM_AGENT, 'python_execute', null)).toBeNull();
  });
});
