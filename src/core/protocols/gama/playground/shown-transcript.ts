/**
 * A recorded or stored GAMA transcript shown in the playground: sent to the page with its reading, in one
 * batch, like a session that has ended. The world is not on the wire, so the world view has none; the
 * episodes' results are the recorded ones, or what the wire tells.
 */
import { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { GamaTranscriptReader } from '../reader';
import { episodeResults } from './episode-results';
import type { GamaEpisodeView } from './options';
import { answerGamaQuestion } from './questions';

/** Shows a transcript: its reading reaches the page at the next frame. */
export function showGamaTranscript(shown: ShownTranscript, services: PlaygroundServices): PlaygroundSession {
  const { transcript } = shown;
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content: { kind: 'transcript', transcript, reader: new GamaTranscriptReader() },
    reset: {
      protocol: transcript.protocol,
      origin: shown.origin,
      ...(shown.name ? { name: shown.name } : {}),
    },
  });
  batcher.close();
  let episodes: GamaEpisodeView[] | undefined;
  const nothing = () => undefined;
  return {
    pause: nothing,
    resume: nothing,
    step: nothing,
    stop: nothing,
    setDelay: nothing,
    decide: nothing,
    abandon: nothing,
    ask: (question, args) =>
      answerGamaQuestion(
        { history: undefined, episodes: () => (episodes ??= episodeResults(transcript)) },
        question,
        args,
      ),
    exportJson: () => [serialiseTranscript(transcript)],
  };
}
