/** MASSim in the playground's session worker: matches, and transcripts shown in the views. */
import type { PlaygroundRunner } from '../../session-contract';
import { startMassimSession } from './session-run';
import { showMassimTranscript } from './shown-store';

/** The runner the session worker loads for MASSim. */
export const massimPlaygroundRunner: PlaygroundRunner = {
  start: startMassimSession,
  show: showMassimTranscript,
};
