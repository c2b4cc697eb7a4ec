/**
 * Where the learner is looking in a MASSim session: the frame (a step; none means "the newest", following
 * a live match), the selected agent, the message log's connection filter and selection.
 */
export class MassimPlayback {
  /** The frame shown; undefined follows the newest. */
  frame = $state<number | undefined>();
  /** The agent whose point of view is shown. */
  agent = $state<string | undefined>();
  /** The log shows every connection, or only those of the selected agent. */
  logScope = $state<'all' | 'agent'>('all');
  /** The selected message; undefined follows the newest. */
  message = $state<number | undefined>();
  /** Message types hidden from the log. */
  hiddenTypes = $state<string[]>([]);

  /** The frame shown, given how many there are. */
  shownFrame(frames: number): number {
    return this.frame === undefined ? frames - 1 : Math.min(this.frame, frames - 1);
  }

  /** Shows a frame; the newest one (or beyond) means following again. */
  showFrame(frame: number, frames: number): void {
    this.frame = frame >= frames - 1 ? undefined : Math.max(0, frame);
  }

  /** Selects an agent and, in the log, its connections. */
  selectAgent(agent: string | undefined): void {
    this.agent = agent;
    if (agent) this.logScope = 'agent';
  }

  toggleType(type: string): void {
    this.hiddenTypes = this.hiddenTypes.includes(type)
      ? this.hiddenTypes.filter((t) => t !== type)
      : [...this.hiddenTypes, type];
  }

  /** Back to the start, for a new match or transcript. */
  reset(): void {
    this.frame = undefined;
    this.message = undefined;
  }
}
