/** rddlsim in the playground's session worker: emulated sessions, and transcripts shown in the views. */
import type { PlaygroundRunner } from '../../session-contract';
import { startRddlsimSession } from './session-run';
import { showRddlsimTranscript } from './shown-transcript';

/** The runner the session worker loads for rddlsim. */
export const rddlsimPlaygroundRunner: PlaygroundRunner = {
  start: startRddlsimSession,
  show: showRddlsimTranscript,
};

export type { RddlSessionSource } from './environments';
