import type { EventDraft, TrajectoryEvent } from "../../core/trajectory.ts";

/**
 * The events of one imported trajectory as an importer emits them: ids `e1`, `e2`, … in order, each with
 * its provenance (`raw: {file, line}`) and, when given, the events it depends on.
 */
export class EventSink {
  readonly events: TrajectoryEvent[] = [];

  constructor(readonly file: string) {}

  /**
   * Append an event and return its id.
   * @param line 1-based source line (absent for a whole-document format)
   * @param parent ids of events this one depends on (omitted when empty)
   */
  add(draft: EventDraft, line?: number, parent?: string[]): string {
    const id = `e${this.events.length + 1}`;
    this.events.push({
      ...draft,
      id,
      raw: { file: this.file, ...(line ? { line } : {}) },
      ...(parent?.length ? { parent } : {}),
    } as TrajectoryEvent);
    return id;
  }
}
