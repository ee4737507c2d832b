import { ruleMatches, type Fault, type ScriptedRequest, type Script, type ScriptRule } from './script';

/** The script being served, how often each rule answered, the queued faults and the request counter. */
export class ScriptState {
  private uses = new Map<ScriptRule, number>();
  private queued: Fault[] = [];
  seq = 0;
  apiKey?: string;

  constructor(public script: Script) {}

  reset(script: Script): void {
    this.script = script;
    this.uses = new Map();
  }

  inject(fault: Fault, count: number): void {
    for (let i = 0; i < count; i++) this.queued.push(fault);
  }

  takeQueuedFault(): Fault | undefined {
    return this.queued.shift();
  }

  /** First matching rule that has uses left; using it counts against its `times`. */
  takeRule(request: ScriptedRequest): ScriptRule | undefined {
    const rule = this.script.rules.find(
      (r) => ruleMatches(r, request) && (r.times === undefined || (this.uses.get(r) ?? 0) < r.times),
    );
    if (rule) this.uses.set(rule, (this.uses.get(rule) ?? 0) + 1);
    return rule;
  }
}
