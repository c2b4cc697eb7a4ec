import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importRecordFile } from '../../src/core/transcript/record-import';
import { readCanonicalServerMessage } from '../../src/core/protocols/rddlsim/canonical-reader';
import { serialiseServerMessage } from '../../src/core/protocols/rddlsim/serialise';
import { parseServerMessage } from '../../src/core/protocols/rddlsim/codec';
const RECORDINGS = resolve(import.meta.dirname, '../../../shared/conformance/rddlsim');
const turns = ['sysadmin_inst_mdp__1','sysadmin_inst_pomdp__1','elevators_inst_mdp__1','game_of_life_inst_mdp__1'].flatMap((name) => importRecordFile(new Uint8Array(readFileSync(resolve(RECORDINGS, `${name}.transcript`)))).messages.filter((m) => m.dir === 's2c' && m.text?.includes('<turn>')).map((m) => m.text!));
const msgs = turns.map((t) => parseServerMessage(t));
function time(label: string, f: () => void) {
  for (let i = 0; i < 5; i++) f();
  const times = [];
  for (let i = 0; i < 7; i++) { const s = performance.now(); f(); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(label, ((times[3]! * 1000) / (turns.length * 20)).toFixed(2), 'µs/msg');
}
let sink = 0;
time('parseServerMessage', () => { for (let r = 0; r < 20; r++) for (const t of turns) sink += parseServerMessage(t).type.length; });
time('serialise', () => { for (let r = 0; r < 20; r++) for (const m of msgs) sink += serialiseServerMessage(m).length; });
time('canonical read', () => { for (let r = 0; r < 20; r++) for (const t of turns) sink += readCanonicalServerMessage(t) ? 1 : 0; });
const copies = turns.map((t) => (' ' + t).slice(1));
time('string compare', () => { for (let r = 0; r < 20; r++) for (let i = 0; i < turns.length; i++) sink += turns[i] === copies[i] ? 1 : 0; });
console.log(sink > 0);
