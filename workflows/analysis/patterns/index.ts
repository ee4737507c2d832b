import type { Pattern } from '../../../contracts/conversation';
import { direct } from './direct';
import { ensemble } from './ensemble';
import { iterative } from './iterative';
import type { PatternRunner } from './jit';
import { planExecute } from './planExecute';
import { react } from './react';
import { reflection } from './reflection';
import { treeOfThoughts } from './treeOfThoughts';

export { classify } from './jit';
export { Turn, TurnStop, type AnswerRef } from './turn';
export { reviseUngrounded } from './reviseUngrounded';
export { crossCheck } from './crossCheck';
export { askForRequestedOutput } from './requestedOutput';

export const PATTERN_RUNNERS: Record<Exclude<Pattern, 'auto'>, PatternRunner> = {
  direct,
  react,
  plan_execute: planExecute,
  reflection,
  iterative,
  tree_of_thoughts: treeOfThoughts,
  ensemble,
};
