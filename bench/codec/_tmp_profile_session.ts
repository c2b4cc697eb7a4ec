import { resolve } from 'node:path';
import { EmulatedSession } from '../../src/core/protocols/rddlsim/session';
import { preparePolicy } from '../../cli/protocols/rddlsim/policies';
import { RddlLibrary } from '../../cli/protocols/rddlsim/rddl-library';
const library = await RddlLibrary.fromServerDirectory(resolve(process.cwd(), '../shared/rddl/ippc2011'), { cwd: process.cwd(), mode: 'lenient' });
const { model, task } = library.load('sysadmin_inst_mdp__1');
const noop = await preparePolicy('noop', { cwd: process.cwd(), seed: 0, budgetMs: 1000, invalidActions: 'stop' });
const rounds = Number(process.argv[2] ?? 50);
const world = process.argv[3] === 'world';
for (let i = 0; i < 12; i++) {
  const start = performance.now();
  const session = new EmulatedSession({ model, task, policy: noop.forInstance(model.info), rounds, recordWorld: world });
  await session.run();
  const s = (performance.now() - start) / 1000;
  console.log(`${(rounds * 40 / s).toFixed(0)} turns/s`, world ? JSON.stringify(session.transcript).length / (rounds*40) : '');
}
