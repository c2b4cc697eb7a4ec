/**
 * What the learner is looking at in the transcript: the selected message (the state panel shows the turn
 * it belongs to), whether the views follow the newest message, the selected round of the chart, and the
 * log's filter.
 */
/** Views the summary of an import leads to: the message log, the console's notes, the rounds' chart. */
export type ShownView = 'messages' | 'console' | 'rounds' | 'unreadable';

export class Playback {
  /** The selected message index; undefined means "the newest". */
  selectedIndex = $state<number | undefined>();
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

  toggleType(type: string): void {
    this.hiddenTypes = this.hiddenTypes.includes(type)
      ? this.hiddenTypes.filter((t) => t !== type)
      : [...this.hiddenTypes, type];
  }

  /** Back to the start: for a new session or a loaded transcript. */
  reset(): void {
    this.selectedIndex = undefined;
    this.selectedRound = undefined;
  }
}
