/**
 * What the learner is looking at in the transcript, for every protocol: the selected message (the state
 * panel shows the turn it belongs to), whether the views follow the newest message, the step on show in a
 * protocol whose views step through frames, the agent whose point of view is shown where a session has
 * several, the selected round of the chart, and the log's filter.
 */
/** Views the summary of an import leads to: the message log, the console's notes, the rounds' chart. */
export type ShownView = 'messages' | 'console' | 'rounds' | 'unreadable';

export class Playback {
  /** The selected message index; undefined means "the newest". */
  selectedIndex = $state<number | undefined>();
  /** The frame (a step of the views' timeline) on show; undefined follows the newest. */
  frame = $state<number | undefined>();
  /** The agent whose point of view is shown, in a session with several. */
  agent = $state<string | undefined>();
  /** The round whose per-step rewards the chart shows; undefined shows totals only. */
  selectedRound = $state<number | undefined>();
  /** Message types hidden from the log. */
  hiddenTypes = $state<string[]>([]);
  /**
   * A view asked for from outside the workbench (a part of the import summary clicked): the workbench
   * brings it forward and focuses it. `seq` tells one request from the next for the same view.
   */
  shown = $state.raw<{ view: ShownView; index?: number; seq: number } | undefined>();

  /** Asks the workbench to bring a view forward (and select a message in it). */
  show(view: ShownView, index?: number): void {
    this.shown = { view, ...(index !== undefined ? { index } : {}), seq: (this.shown?.seq ?? 0) + 1 };
  }

  /** Selects a message; selecting none returns to following the newest. */
  select(index: number | undefined): void {
    this.selectedIndex = index;
  }

  /** The frame on show, given how many there are (the newest when following). */
  shownFrame(frames: number): number {
    return this.frame === undefined ? frames - 1 : Math.min(this.frame, frames - 1);
  }

  /** Shows a frame; the newest one (or beyond) means following again. */
  showFrame(frame: number, frames: number): void {
    this.frame = frame >= frames - 1 ? undefined : Math.max(0, frame);
  }

  toggleType(type: string): void {
    this.hiddenTypes = this.hiddenTypes.includes(type)
      ? this.hiddenTypes.filter((t) => t !== type)
      : [...this.hiddenTypes, type];
  }

  /** Back to the start: for a new session or a loaded transcript. */
  reset(): void {
    this.selectedIndex = undefined;
    this.selectedRound = undefined;
    this.frame = undefined;
  }
}
