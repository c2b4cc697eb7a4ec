/** MASSim in the playground's session worker: matches, matches through the bridge, and shown transcripts. */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedMassimHostRun } from './bridged-host-run';
import { startMassimSession } from './session-run';
import { showMassimTranscript } from './shown-store';

/** The runner the session worker loads for MASSim. */
export const massimPlaygroundRunner: BridgedPlaygroundRunner = {
  start: startMassimSession,
  show: showMassimTranscript,
  startBridged: (config, route, services, bridge) => {
    if (route.mode === 'inbound') return startBridgedMassimHostRun(config, route.listen, services, bridge);
    return Promise.reject(new Error('playing a real MASSim server from the page is not available yet'));
  },
};
