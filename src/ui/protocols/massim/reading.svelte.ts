/**
 * What the MASSim views show of the transcript on show, which stays in the session worker: the reading of
 * it the runner reports as news (timeline, agents, outcomes, stopped receivers, notes, log rows), gathered
 * as they arrive. One is made for every match or opened transcript (see `Session.views`).
 */
import type {
  MassimAgent,
  MassimFrame,
  MassimNews,
  MassimNote,
  MassimReceiverStop,
  MassimRows,
} from '../../../core/protocols/massim/reading';
import type { ProtocolViewState } from '../../../state/session.svelte';

/** The log rows so far, as columns (never reactive: `rowCount` says when they grew). */
export type MassimLogRows = Omit<MassimRows, 'from'>;

/** `list` up to `from`, then `added`, as a new array (the views compare by reference). */
function following<T>(list: readonly T[], from: number, added: readonly T[]): readonly T[] {
  return from === list.length ? list.concat(added) : [...list.slice(0, from), ...added];
}

export class MassimReading implements ProtocolViewState {
  frames = $state.raw<readonly MassimFrame[]>([]);
  /** Outcome codes per frame and agent (see `MASSIM_RESULT_KINDS`). */
  results = $state.raw<readonly (readonly number[])[]>([]);
  agents = $state.raw<readonly MassimAgent[]>([]);
  teams = $state.raw<readonly string[]>([]);
  connections = $state.raw<readonly string[]>([]);
  stops = $state.raw<readonly MassimReceiverStop[]>([]);
  notes = $state.raw<readonly MassimNote[]>([]);
  /** The position of the newest frame with a world, or -1 (kept as frames arrive, not searched for). */
  newestWorld = $state(-1);
  /** How many log rows there are; the rows themselves are in `rows`. */
  rowCount = $state(0);
  readonly rows: MassimLogRows = { conn: [], dir: [], t: [], type: [], frame: [], gist: [], unreadable: [] };

  /** Adds a batch of the reader's news. */
  apply(news: unknown): void {
    this.#add(news as MassimNews);
  }

  #add(news: MassimNews): void {
    if (news.connections) this.connections = news.connections;
    if (news.agents) this.agents = news.agents;
    if (news.teams) this.teams = news.teams;
    if (news.frames.length || news.framesFrom < this.frames.length) {
      // One copy, not two: news nearly always only adds frames at the end.
      this.frames = following(this.frames, news.framesFrom, news.frames);
      this.results = following(this.results, news.framesFrom, news.results);
      this.#findNewestWorld(news.framesFrom);
    }
    if (news.stops.length || news.resumed.length) {
      const stops = [...this.stops, ...news.stops];
      for (const resumed of news.resumed) {
        const at = stops.findIndex((s) => s.index === resumed.index && s.conn === resumed.conn);
        if (at >= 0) stops[at] = { ...stops[at]!, resumedAt: resumed.resumedAt };
      }
      this.stops = stops;
    }
    if (news.notes.length) this.notes = [...this.notes, ...news.notes];
    const rows = news.rows;
    if (rows.conn.length) {
      const own = this.rows;
      for (let i = 0; i < rows.conn.length; i++) {
        own.conn.push(rows.conn[i]!);
        own.dir.push(rows.dir[i]!);
        own.t.push(rows.t[i]!);
        own.type.push(rows.type[i]!);
        own.frame.push(rows.frame[i]!);
        own.gist.push(rows.gist[i]!);
        own.unreadable.push(rows.unreadable[i]!);
      }
      this.rowCount = own.conn.length;
    }
  }

  /** Follows the newest frame with a world, looking only at frames from `changedFrom` on if it can. */
  #findNewestWorld(changedFrom: number): void {
    const frames = this.frames;
    // The frames before `changedFrom` are as they were: unless the newest world was among the changed
    // ones, nothing before `changedFrom` needs looking at.
    const stop = this.newestWorld < changedFrom ? changedFrom : 0;
    let newest = this.newestWorld < changedFrom ? this.newestWorld : -1;
    for (let i = frames.length - 1; i >= stop; i--)
      if (frames[i]!.world) {
        newest = i;
        break;
      }
    if (newest !== this.newestWorld) this.newestWorld = newest;
  }
}
