/** What grounding records about an answer (the `grounding` event's data and the debug record); pure types. */

export type SourceKind = 'stdout' | 'table' | 'file' | 'calculator' | 'fetch' | 'question';

/** Where a number came from: the tool call, which of its outputs, and the line it is on. */
export interface NumberSource {
  kind: SourceKind;
  tool?: string;
  stepId?: string;
  callId?: string;
  /** Workspace path of a table or file. */
  file?: string;
  /** 1-based line of the output or file. */
  line?: number;
  /** That line, cut to a readable length. */
  excerpt: string;
}

export interface GroundedNumber {
  text: string;
  value: number;
  /** Offsets in the model's answer text (after `answerOffset` characters of the shown answer). */
  start: number;
  end: number;
  grounded: boolean;
  source?: NumberSource;
}

export interface Grounding {
  /** Characters the shown answer has before the model's text (a note or recommendation the system adds). */
  answerOffset: number;
  numbers: GroundedNumber[];
  total: number;
  grounded: number;
  /** Numbers inside code blocks of the answer: code, not claims about the data, so not checked. */
  inCode: number;
  /** How many values the turn's tools produced (what the numbers were matched against). */
  produced: number;
  /** A sentence for the reader when there is nothing to check, or nothing to check against. */
  note?: string;
}

/** The share of an answer's numbers found in its turn's tool outputs (1 when it states none). */
export function groundedShare(g: Pick<Grounding, 'total' | 'grounded'>): number {
  return g.total ? g.grounded / g.total : 1;
}
