/** MASSim in the playground's session worker: matches, matches through the bridge, and transcripts shown in the views. */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedMassimRun } from './bridged-team-run';
import { startMassimSession } from './session-run';
import { showMassimTranscript } from './shown-store';

/** The runner the session worker loads for MASSim. */
export const massimPlaygroundRunner: BridgedPlaygroundRunner = {
  start: startMassimSession,
  show: showMassimTranscript,
  startBridged: (config, route, services, bridge) => {
    if (route.mode === 'outbound') return startBridgedMassimRun(config, route.target, services, bridge);
    return Promise.reject(new Error('answering a listen port is not available for MASSim yet'));
  },
};
