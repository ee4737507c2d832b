/**
 * Tasks whose data was reported wrong upstream (RUCKBReasoning/SpreadsheetBench issues), per edition. A run's scores
 * are reported both with and without them (summary.json `excluded`, report, `compare`). The list only grows with
 * reports that name a task and the defect; remove an entry when the edition it names is fixed upstream.
 */
export interface KnownBadTask {
  /** The task id as dataset.json spells it (as text). */
  id: string;
  /** Where it was reported. */
  report: string;
  problem: string;
}

export const KNOWN_BAD: Readonly<Record<string, readonly KnownBadTask[]>> = {
  verified_400: [
    {
      id: '130-9',
      report: 'RUCKBReasoning/SpreadsheetBench#33',
      problem:
        "answer_position 'b2b, sez, de'!A5:V10 names a sheet with commas; the official scorer splits on ',' and scores a correct output 0",
    },
    {
      id: '118-50',
      report: 'RUCKBReasoning/SpreadsheetBench#34',
      problem:
        "answer_position 'Sheet1'!C2:D5000 leaves out the golden's first result row (C1:D1): row 1 is never checked",
    },
    {
      id: '12864',
      report: 'RUCKBReasoning/SpreadsheetBench#35',
      problem:
        'the instruction asks for dates and for column C; the golden answer holds neither (its scored range B2:B12 is self-consistent)',
    },
    {
      id: '60-7',
      report: 'RUCKBReasoning/SpreadsheetBench#36',
      problem:
        'answer_sheet lists all four sheets the instruction names instead of the destination sheet (Consolidated Tracker)',
    },
    {
      id: '283-32',
      report: 'RUCKBReasoning/SpreadsheetBench#36',
      problem:
        "answer_position Sheet3'!A:G,'Sheet4'!A:G lacks the leading quote (and uses whole-column ranges): the golden fails against itself",
    },
    {
      id: '41-47',
      report: 'RUCKBReasoning/SpreadsheetBench#36',
      problem: 'answer_position lacks the leading quote on its first sheet: the golden fails against itself',
    },
    {
      id: '13284',
      report: 'RUCKBReasoning/SpreadsheetBench#37',
      problem:
        'the golden was computed on a Streets sheet changed from the one in the input, and the instruction contradicts the golden',
    },
  ],
};

/** The known-bad tasks of an edition (none for an edition without reports). */
export function knownBadTasks(edition: string | undefined): readonly KnownBadTask[] {
  return (edition && KNOWN_BAD[edition]) || [];
}

/** What a run of this edition reports its scores without, or undefined when the edition has no known-bad task. */
export function knownBadExclusion(edition: string | undefined): { why: string; ids: string[] } | undefined {
  const ids = knownBadTasks(edition).map((t) => t.id);
  return ids.length ? { why: `known-bad tasks of ${edition} (data errors reported upstream)`, ids } : undefined;
}
