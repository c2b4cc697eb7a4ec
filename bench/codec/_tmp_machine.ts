import { rddlsimClientMachine } from '../../src/core/protocols/rddlsim/client-machine';
import type { DecodedMessage } from '../../src/core/protocols/rddlsim/decoded-message';
let state = rddlsimClientMachine.initial();
const d = (dir: 'c2s' | 's2c', message: any, index: number): DecodedMessage => ({ kind: 'data', index, dir, framing: 'nul', result: { ok: true, message } });
let i = 0;
const step = (dir: 'c2s' | 's2c', message: any) => { const s = rddlsimClientMachine.acceptDecoded(state, d(dir, message, i++)); if (!s.ok) throw new Error(s.violation.message); state = s.state; };
step('c2s', { type: 'session-request', problemName: 'p', clientName: 'c', noHeader: false });
step('s2c', { type: 'session-init', task: 'x', sessionId: 1, numRounds: 1e9, timeAllowed: 1 });
const N = 200000;
const t0 = performance.now();
for (let r = 0; r < N / 40; r++) {
  step('c2s', { type: 'round-request' });
  step('s2c', { type: 'round-init', roundNum: r + 1, roundLeft: 1e9 - r - 1, timeLeft: 1 });
  for (let t = 1; t <= 40; t++) {
    step('s2c', { type: 'turn', turnNum: t, timeLeft: 1, immediateReward: t === 1 ? 0 : 1, fluents: [] });
    if (t < 40) step('c2s', { type: 'actions', actions: [] }); else { step('c2s', { type: 'actions', actions: [] }); step('s2c', { type: 'round-end', instanceName: 'i', clientName: 'c', roundNum: r, roundReward: 1, turnsUsed: 40, timeLeft: 1, immediateReward: 1 }); }
  }
}
console.log(((performance.now() - t0) * 1000 / N).toFixed(3), 'µs per turn (2 machine steps)');
