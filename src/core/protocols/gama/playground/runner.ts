/** GAMA in the playground's session worker: emulated sessions, and transcripts shown in the views. */
import type { PlaygroundRunner } from '../../session-contract';
import { startGamaSession } from './session-run';
import { showGamaTranscript } from './shown-transcript';

/** The runner the session worker loads for GAMA. */
export const gamaPlaygroundRunner: PlaygroundRunner = {
  start: startGamaSession,
  show: showGamaTranscript,
};
