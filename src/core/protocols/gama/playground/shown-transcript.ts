/**
 * A recorded or stored GAMA transcript shown in the playground: sent to the page with its reading, in one
 * batch, like a session that has ended. The world is not on the wire, so the world view has none; the
 * episodes' results are the recorded ones, or what the wire tells.
 */
import { showTranscript } from '../../../session/shown-session';
import { serialiseTranscript } from '../../../transcript/json-format';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { GamaTranscriptReader } from '../reader';
import { episodeResults } from './episode-results';
import type { GamaEpisodeView } from './options';
import { answerGamaQuestion } from './questions';

/** Shows a transcript: its reading reaches the page at the next frame. */
export function showGamaTranscript(shown: ShownTranscript, services: PlaygroundServices): PlaygroundSession {
  const { transcript } = shown;
  let episodes: GamaEpisodeView[] | undefined;
  return showTranscript(
    shown,
    services,
    { kind: 'transcript', transcript, reader: new GamaTranscriptReader() },
    {
      ask: (question, args) =>
        answerGamaQuestion(
          { history: undefined, episodes: () => (episodes ??= episodeResults(transcript)) },
          question,
          args,
        ),
      exportJson: () => [serialiseTranscript(transcript)],
    },
  );
}
