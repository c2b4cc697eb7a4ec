/**
 * A recorded or stored GAMA transcript shown in the playground: sent to the page with its reading, in one
 * batch, like a session that has ended. The world is not on the wire: it is rebuilt by replaying the
 * recorded answers where that gives back the recorded requests (`replayed-worlds.ts`), else the world view
 * says why not and shows what the wire tells. The episodes' results are the recorded ones, or what the
 * wire tells.
 */
import { showTranscript } from '../../../session/shown-session';
import { serialiseTranscript } from '../../../transcript/json-format';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { GamaTranscriptReader } from '../reader';
import { GamaEpisodeResults } from './episode-results';
import { answerGamaQuestion } from './questions';
import { GamaReplayedWorlds } from './replayed-worlds';

/** Shows a transcript: its reading reaches the page at the next frame. */
export function showGamaTranscript(shown: ShownTranscript, services: PlaygroundServices): PlaygroundSession {
  const { transcript, growing } = shown;
  /** The episodes' results, brought up to date with what was read since the last question. */
  const episodes = new GamaEpisodeResults();
  let worlds: GamaReplayedWorlds | undefined;
  return showTranscript(
    shown,
    services,
    { kind: 'transcript', transcript, reader: new GamaTranscriptReader() },
    {
      ask: (question, args) =>
        answerGamaQuestion(
          {
            history: {
              view: (episode, cycle) =>
                (worlds ??= new GamaReplayedWorlds(transcript, growing)).view(episode, cycle),
            },
            episodes: () => episodes.read(transcript),
          },
          question,
          args,
        ),
      exportJson: () => [serialiseTranscript(transcript)],
    },
  );
}
