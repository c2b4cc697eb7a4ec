import { resolve } from 'node:path';
import { RddlsimHost } from '../../src/core/protocols/rddlsim/host';
import { RddlsimClient } from '../../src/core/protocols/rddlsim/client';
import { RddlLibrary } from '../../cli/protocols/rddlsim/rddl-library';
import { decodeObservation } from '../../src/core/protocols/rddlsim/observation';
const library = await RddlLibrary.fromServerDirectory(resolve(process.cwd(), '../shared/rddl/ippc2011'), { cwd: process.cwd(), mode: 'lenient' });
const hosted = library.load('sysadmin_inst_mdp__1');
const ROUNDS = 200;
// Record a session: the server's byte chunks (one per client message) and the client's messages.
function record() {
  const host = new RddlsimHost({ resolveInstance: () => hosted, rounds: ROUNDS, timeLimitSeconds: 0 });
  const conn = host.accept();
  const client = new RddlsimClient({ problemName: 'sysadmin_inst_mdp__1', info: hosted.model.info });
  const toServer: Uint8Array[] = []; const toClient: Uint8Array[] = [];
  let events = client.start();
  for (;;) {
    const sends = events.filter((e) => e.kind === 'send');
    if (sends.length === 0) break;
    for (const s of sends) {
      toServer.push((s as any).bytes);
      const effects = conn.receive((s as any).bytes);
      const out = effects.filter((e) => e.kind === 'send').map((e: any) => e.bytes as Uint8Array);
      const chunk = new Uint8Array(out.reduce((n, b) => n + b.length, 0)); let o = 0; for (const b of out) { chunk.set(b, o); o += b.length; }
      toClient.push(chunk);
      events = client.receive(chunk);
      if (client.decisionDue) events = [...events, ...client.act(null).events];
    }
  }
  return { toServer, toClient };
}
const { toServer, toClient } = record();
const turns = ROUNDS * 40;
console.log('messages', toServer.length, toClient.length);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function timeIt(label: string, f: () => void) {
  for (let i = 0; i < 3; i++) f();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) { const s = cpu(); f(); times.push(cpu() - s); }
  times.sort((a, b) => a - b);
  console.log(label.padEnd(30), (times[0]! * 1000 / turns).toFixed(2), "µs/turn (min)", (times[7]! * 1000 / turns).toFixed(2), "(median)");
}
timeIt('host side', () => {
  const host = new RddlsimHost({ resolveInstance: () => hosted, rounds: ROUNDS, timeLimitSeconds: 0 });
  const conn = host.accept();
  for (const b of toServer) conn.receive(b);
});
if (0) timeIt("client side"', () => {
  const client = new RddlsimClient({ problemName: 'sysadmin_inst_mdp__1', info: hosted.model.info });
  client.start();
  for (const c of toClient) { client.receive(c); if (client.decisionDue) client.act(null); }
});
if (process.argv[2] === 'host') for (let k = 0; k < 30; k++) { const host = new RddlsimHost({ resolveInstance: () => hosted, rounds: ROUNDS, timeLimitSeconds: 0 }); const conn = host.accept(); for (const b of toServer) conn.receive(b); }
if (process.argv[2] === 'client') for (let k = 0; k < 30; k++) { const client = new RddlsimClient({ problemName: 'sysadmin_inst_mdp__1', info: hosted.model.info }); client.start(); for (const c of toClient) { client.receive(c); if (client.decisionDue) client.act(null); } }
