/** Told to the user when an answer was given without running anything. */
export const NO_TOOL_NOTE =
  '_Note: the model answered without running any code or tool, so this answer is not computed from your data._';
