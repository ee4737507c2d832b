/** A candidate as the vote sees it: whether it passed the checks, and what it wrote (see checks.ts `signature`). */
export interface Ballot {
  id: string;
  passed: boolean;
  signature: string[][];
  /** It failed only because its outputs differ from the user's example of the result (exampleTable.ts). */
  onlyExample?: boolean;
  /** Its formula keeps whole the user's formula the task asks to add a condition to (quotedFormula.ts). */
  keepsUserFormula?: boolean;
}

export interface VoteResult {
  /** The chosen candidate; undefined when no candidate passed (the input is then left unchanged). */
  chosen?: string;
  /** Agreement of each passing candidate with the others (sum of shares of equal answer cells). */
  scores: { id: string; score: number }[];
  reason: string;
}

/**
 * Minimum-Bayes-risk choice by execution agreement (MBR-exec, CodeT-style): among the candidates that passed the
 * checks, the one whose answer cells agree most with the others', summed over the other candidates; the share of
 * equal cells over every test case is the similarity, so near-agreement counts. Ties go to the earlier candidate
 * (the first is sampled at the run's temperature).
 */
export function choose(ballots: Ballot[]): VoteResult {
  const passing = ballots.filter((b) => b.passed);
  if (!passing.length)
    return {
      scores: [],
      reason: `none of ${ballots.length} candidate(s) passed the checks: the input is left unchanged`,
    };
  const scores = passing.map((b) => ({
    id: b.id,
    score: passing.filter((o) => o !== b).reduce((sum, o) => sum + similarity(b.signature, o.signature), 0),
  }));
  const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
  const agreeing = passing.filter(
    (o) => o.id !== best.id && similarity(o.signature, passing.find((p) => p.id === best.id)!.signature) === 1,
  ).length;
  return {
    chosen: best.id,
    scores,
    reason:
      passing.length === 1
        ? `${best.id} is the only candidate of ${ballots.length} that passed the checks`
        : `${best.id}: ${agreeing + 1} of ${passing.length} passing candidates write the same answer cells (agreement ${best.score.toFixed(2)})`,
  };
}

/**
 * The submission's vote: `choose` among the passing candidates, narrowed to those that keep the user's formula whole
 * when the task asks to add a condition to it and some do (checked-vote-v15); and when no candidate passed every
 * check, the vote among those whose only problem is that they differ from the user's example of the result
 * (checked-vote-v14): the example is the user's, not the task's answer, and a candidate it alone refuses is what v13
 * and earlier submitted; leaving the input unchanged is kept for candidates with other problems.
 */
export function chooseSubmission(ballots: Ballot[]): VoteResult {
  const keepers = ballots.some((b) => b.passed && b.keepsUserFormula);
  if (keepers) {
    // checked-vote-v15: the user asked to add a condition to their formula, and some passing candidates kept it whole
    // (39604, v14: two that rewrote it agreed on wrong values and outvoted the one that kept it).
    const vote = choose(ballots.map((b) => ({ ...b, passed: b.passed && !!b.keepsUserFormula })));
    return { ...vote, reason: `among the passing candidates that keep the user's formula whole: ${vote.reason}` };
  }
  const vote = choose(ballots);
  if (vote.chosen || !ballots.some((b) => b.onlyExample)) return vote;
  const fallback = choose(ballots.map((b) => ({ ...b, passed: !!b.onlyExample })));
  return {
    ...fallback,
    reason: `none of ${ballots.length} candidate(s) passed every check; among those that differ only from the workbook's example of the result: ${fallback.reason}`,
  };
}

/** Whether a check record's only problems are differences from the user's example (the record may be missing). */
export function onlyExampleMismatch(record: { problems: { kind: string }[] } | undefined): boolean {
  return !!record?.problems.length && record.problems.every((p) => p.kind === 'example_mismatch');
}

/** Share of answer cells (over all test cases) on which two candidates wrote the same value. */
export function similarity(a: string[][], b: string[][]): number {
  let same = 0;
  let total = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? [];
    const y = b[i] ?? [];
    const n = Math.max(x.length, y.length);
    total += n;
    for (let j = 0; j < n; j++) if (x[j] === y[j]) same++;
  }
  return total ? same / total : 1;
}

/**
 * Whether more candidates can no longer change the choice: more than half of `planned` candidates passed and wrote
 * the same answer cells everywhere (`digests`: a hash of each signature), so no later group can outvote them.
 */
export function settled(ballots: Pick<Ballot, 'passed'>[], digests: (string | undefined)[], planned: number): boolean {
  const counts = new Map<string, number>();
  for (let i = 0; i < ballots.length; i++) {
    const d = digests[i];
    if (!ballots[i].passed || d === undefined) continue;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  return [...counts.values()].some((n) => n > planned / 2);
}

/**
 * Whether the passing candidates so far split with no group of equal answers larger than every other (1 against 1,
 * 2 against 2): the vote would then fall to the earlier candidate, a coin toss that one more sample can settle
 * (checked-vote-v7, 599-9: the two Python candidates passed with different answers and the wrong, earlier one won).
 */
export function tied(ballots: Pick<Ballot, 'passed'>[], digests: (string | undefined)[]): boolean {
  const counts = new Map<string, number>();
  for (let i = 0; i < ballots.length; i++) {
    const d = digests[i];
    if (ballots[i].passed && d !== undefined) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const sizes = [...counts.values()].sort((a, b) => b - a);
  return sizes.length >= 2 && sizes[0] === sizes[1];
}
