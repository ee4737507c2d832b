/** Where checked_vote keeps a task's work, inside the task's artifact folder (`/`-joined: also used in workflows). */
export const CHECKED_VOTE_FOLDER = 'checked-vote';

/** The folder holding candidate attempt `label`'s outputs (`<N>_<id>_output.xlsx`), before one is submitted. */
export function candidateOutputFolder(label: string): string {
  return `${CHECKED_VOTE_FOLDER}/outputs/${label}`;
}
