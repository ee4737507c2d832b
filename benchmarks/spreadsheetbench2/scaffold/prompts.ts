/**
 * The paper's messages, rendered as SWE-agent renders its Jinja templates: the system message, the instance message
 * (instruction, input file, output path) and each observation (as is, "no output", cut to its head and tail, or the
 * time-out warning). Pure.
 */
import type { ScaffoldConfig } from './config';

/** `{{name}}` placeholders (the only Jinja the paper's system and instance templates use). */
export function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : whole,
  );
}

export interface InstanceVars {
  instruction: string;
  /** The input file as the shell sees it. */
  spreadsheet_path: string;
  /** Where the output must be written, as the shell sees it. */
  output_path: string;
}

export function systemMessage(config: ScaffoldConfig): string {
  return renderTemplate(config.system_template, {});
}

export function instanceMessage(config: ScaffoldConfig, vars: InstanceVars): string {
  return renderTemplate(config.instance_template, { ...vars });
}

/** What the shell printed, as the step's observation carries it: whole when short, else its head and tail and length. */
export interface ShellOutput {
  /** The whole output when it is at most max_observation_length characters, else null. */
  whole: string | null;
  head: string;
  tail: string;
  /** Length in characters (Python's len: code points). */
  length: number;
  /** `observation.strip() == ""`. */
  blank: boolean;
}

/** `add_step_to_history`'s choice of template: no output, the observation, or its head and tail with the elided count. */
export function observationMessage(config: ScaffoldConfig, out: ShellOutput): string {
  if (out.blank) return config.next_step_no_output_template;
  if (out.whole !== null) return renderTemplate(config.next_step_template, { observation: out.whole });
  const elided = out.length - config.max_observation_length;
  return config.next_step_truncated_observation_template
    .replace(/\{\{observation\[ : max_observation_length \/\/ 2\]\}\}/, () => out.head)
    .replace(/\{\{elided_chars\}\}/, String(elided))
    .replace(/\{\{observation\[- max_observation_length \/\/ 2:\]\}\}/, () => out.tail);
}

/** `command_cancelled_timeout_template` for a command cancelled at the time limit. */
export function timeoutMessage(config: ScaffoldConfig, command: string): string {
  return renderTemplate(config.command_cancelled_timeout_template, {
    command,
    timeout: String(config.tools.execution_timeout),
  });
}
