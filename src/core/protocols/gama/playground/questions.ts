/** Answers the GAMA views' questions (`GAMA_QUESTIONS`) about what is on show, live or opened. */
import { GAMA_QUESTIONS, type GamaEpisodeView, type GamaQuestion } from './options';
import type { GamaWorldView } from './options';
import type { GamaWorldUnavailable } from './replayed-worlds';

/** What the answers are read from. */
export interface GamaShown {
  /**
   * The worlds: the ones played here, or those rebuilt from an opened transcript; none in batch mode.
   */
  history:
    { view(episode: number, cycle: number): GamaWorldView | GamaWorldUnavailable | undefined } | undefined;
  episodes: () => readonly GamaEpisodeView[];
}

/** Answers one question; undefined for an unknown one or one the transcript cannot answer. */
export function answerGamaQuestion(shown: GamaShown, question: string, args: readonly unknown[]): unknown {
  if (!(GAMA_QUESTIONS as readonly string[]).includes(question)) return undefined;
  switch (question as GamaQuestion) {
    case 'world':
      return shown.history?.view(Number(args[0]), Number(args[1]));
    case 'episodes':
      return shown.episodes();
  }
}
