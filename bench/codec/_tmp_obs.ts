import { decodeObservation } from '../../src/core/protocols/rddlsim/observation';
import type { Turn } from '../../src/core/protocols/rddlsim/messages';
const turn: Turn = { type: 'turn', turnNum: 3, timeLeft: 1e6, immediateReward: 4, fluents: Array.from({ length: 10 }, (_, i) => ({ name: 'running', args: [`c${i + 1}`], value: i % 3 ? 'true' : 'false' })) };
const N = 300000; let sink = 0;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let k = 0; k < 4; k++) { const t0 = cpu(); for (let i = 0; i < N; i++) sink += decodeObservation(turn, 1).turn; console.log(((cpu() - t0) * 1000 / N).toFixed(3), 'µs cpu'); }
