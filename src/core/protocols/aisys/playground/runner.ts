/**
 * aisys in the playground's session worker: sessions against the emulated server or, through
 * `protoplay bridge`, a real one (an HTTP target), real clients answered by the emulated server (a listen
 * port), and transcripts shown in the views.
 */
import type { BridgedPlaygroundRunner } from '../../../session/bridge-route';
import { startBridgedAisysHostRun } from './bridged-host-run';
import { startAisysSession } from './session-run';
import { showAisysTranscript } from './shown-transcript';

/** The runner the session worker loads for aisys. */
export const aisysPlaygroundRunner: BridgedPlaygroundRunner = {
  start: (config, services) => startAisysSession(config, services),
  show: showAisysTranscript,
  async startBridged(config, route, services, bridge) {
    if (route.mode === 'inbound') return startBridgedAisysHostRun(config, route.listen, services, bridge);
    return startAisysSession(config, services, { kind: 'bridge', target: route.target, bridge });
  },
};
