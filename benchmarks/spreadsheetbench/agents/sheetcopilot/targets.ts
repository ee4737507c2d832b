import { parseAnswerPosition } from '../../scoring/answerPosition';

/** One answer_position piece as the stage-1 and stage-5 programs read it. */
export type ProgramTarget =
  | {
      raw: string;
      sheet: string | null;
      kind: 'cells';
      colStart: number;
      colEnd: number;
      rowStart: number;
      rowEnd: number;
    }
  | { raw: string; sheet: string | null; kind: 'columns'; colStart: number; colEnd: number }
  | { raw: string; sheet: string | null; kind: 'error'; error: string };

/**
 * Every piece of answer_position (comma lists, quoted or half-quoted sheet names, NBSP, lowercase, full-width colon),
 * parsed with the scorer's strict rules so that observation and validation look at the cells that are scored.
 */
export function programTargets(answerPosition: string): ProgramTarget[] {
  return parseAnswerPosition(answerPosition, 'strict').pieces.map((p) => ({ raw: p.raw, sheet: p.sheet, ...p.target }));
}
