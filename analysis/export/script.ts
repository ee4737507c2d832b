import type { Cell } from './cells';

/**
 * The cells as a plain Python script in the percent format editors and jupytext read (`# %%` code cells, `# %% [markdown]`
 * text as comments). A cell's last expression is shown by a notebook, not printed by the script.
 */
export function scriptText(cells: Cell[]): string {
  const parts = cells.map((c) =>
    c.type === 'code'
      ? `# %%\n${c.code.trimEnd()}\n`
      : `# %% [markdown]\n${c.text
          .trimEnd()
          .split('\n')
          .map((l) => (l ? `# ${l}` : '#'))
          .join('\n')}\n`,
  );
  return `${parts.join('\n')}`;
}
