import type { ConversationEvent } from './events';
import type { FileInfo, VisualizationOutput } from './types';

/** What a share of one turn shows: that turn's events only (a whole-conversation share: all of them). */
export function scopedEvents(events: ConversationEvent[], turnId?: string): ConversationEvent[] {
  return turnId ? events.filter((e) => e.turnId === turnId) : events;
}

/** The workspace files some events name: attachments, files the tools wrote, the data files and images of outputs. */
export function filesNamed(events: ConversationEvent[]): Set<string> {
  const names = new Set<string>();
  for (const e of events) {
    if (e.type === 'turn_started') for (const f of (e.data.files as string[] | undefined) ?? []) names.add(f);
    if (e.type === 'file') names.add((e.data.file as FileInfo).path);
    if (e.type === 'visualization') {
      const output = e.data.output as VisualizationOutput & { file?: string };
      if (output.dataFile) names.add(output.dataFile);
      if (output.file) names.add(output.file);
    }
  }
  return names;
}
