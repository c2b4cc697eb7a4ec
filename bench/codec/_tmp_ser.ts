import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importRecordFile } from '../../src/core/transcript/record-import';
import { serialiseServerMessage } from '../../src/core/protocols/rddlsim/serialise';
import { parseServerMessage } from '../../src/core/protocols/rddlsim/codec';
import { escapeXmlText } from '../../src/core/protocols/rddlsim/xml-text';
const RECORDINGS = resolve(import.meta.dirname, '../../../shared/conformance/rddlsim');
const turns = ['sysadmin_inst_mdp__1','sysadmin_inst_pomdp__1','elevators_inst_mdp__1','game_of_life_inst_mdp__1'].flatMap((name) => importRecordFile(new Uint8Array(readFileSync(resolve(RECORDINGS, `${name}.transcript`)))).messages.filter((m) => m.dir === 's2c' && m.text?.includes('<turn>')).map((m) => m.text!));
const msgs = turns.map((t) => parseServerMessage(t));
const strings = msgs.flatMap((m) => m.type === 'turn' ? (m.fluents ?? []).flatMap((f) => [f.name, ...f.args, f.value]) : []);
console.log('strings per turn', strings.length / msgs.length, 'sizes', turns.slice(0,3).map(t=>t.length));
function time(label: string, n: number, f: () => void) {
  for (let i = 0; i < 5; i++) f();
  const times = [];
  for (let i = 0; i < 9; i++) { const s = performance.now(); f(); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(label, ((times[4]! * 1e6) / n).toFixed(1), 'ns/op');
}
let sink = 0;
const RE = /[^\t\n\x20-\x25\x27-\x3b\x3d\x3f-\x7f]/;
function loop(t: string) { for (let i = 0; i < t.length; i++) { const c = t.charCodeAt(i); if (c < 0x20 ? c !== 9 && c !== 10 : c === 0x26 || c === 0x3c || c === 0x3e || c > 0x7f) return true; } return false; }
for (let k = 0; k < 3; k++) {
time('regex test', strings.length * 10, () => { for (let r = 0; r < 10; r++) for (const s of strings) sink += RE.test(s) ? 1 : 0; });
time('loop test', strings.length * 10, () => { for (let r = 0; r < 10; r++) for (const s of strings) sink += loop(s) ? 1 : 0; });
time('escapeXmlText', strings.length * 10, () => { for (let r = 0; r < 10; r++) for (const s of strings) sink += escapeXmlText(s).length; });
time('serialise', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (const m of msgs) sink += serialiseServerMessage(m).length; });
time('serialise+compare', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (let i = 0; i < msgs.length; i++) sink += serialiseServerMessage(msgs[i]!) === turns[i] ? 1 : 0; });
}
console.log(sink > 0);
import type { WireFluent } from '../../src/core/protocols/rddlsim/messages';
import { javaDoubleToString, javaIntegerToString } from '../../src/core/protocols/rddlsim/java-format';
const NEEDS = /[^\t\n\x20-\x25\x27-\x3b\x3d\x3f-\x7f]/;
function esc(t: string) { return NEEDS.test(t) ? escapeXmlText(t) : t; }
function serB(m: any): string {
  let xml = '<?xml version="1.0" encoding="UTF-8"?>\n<turn><turn-num>' + javaIntegerToString(m.turnNum) + '</turn-num><time-left>' + javaDoubleToString(m.timeLeft) + '</time-left><immediate-reward>' + javaDoubleToString(m.immediateReward) + '</immediate-reward>';
  if (m.fluents === null) xml += '<no-observed-fluents/>';
  else for (const f of m.fluents as WireFluent[]) {
    xml += '<observed-fluent><fluent-name>' + esc(f.name) + '</fluent-name>';
    for (const a of f.args) xml += '<fluent-arg>' + esc(a) + '</fluent-arg>';
    xml += '<fluent-value>' + esc(f.value) + '</fluent-value></observed-fluent>';
  }
  return xml + '</turn>';
}
for (let k = 0; k < 3; k++) {
time('serB', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (const m of msgs) sink += serB(m).length; });
time('serB+compare', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (let i = 0; i < msgs.length; i++) sink += serB(msgs[i]!) === turns[i] ? 1 : 0; });
time('javaDouble', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (const m of msgs) sink += javaDoubleToString((m as any).timeLeft).length + javaDoubleToString((m as any).immediateReward).length; });
}
function serC(m: any): string {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<turn><turn-num>', javaIntegerToString(m.turnNum), '</turn-num><time-left>', javaDoubleToString(m.timeLeft), '</time-left><immediate-reward>', javaDoubleToString(m.immediateReward), '</immediate-reward>'];
  if (m.fluents === null) parts.push('<no-observed-fluents/>');
  else for (const f of m.fluents as WireFluent[]) {
    parts.push('<observed-fluent><fluent-name>', esc(f.name), '</fluent-name>');
    for (const a of f.args) parts.push('<fluent-arg>', esc(a), '</fluent-arg>');
    parts.push('<fluent-value>', esc(f.value), '</fluent-value></observed-fluent>');
  }
  parts.push('</turn>');
  return parts.join('');
}
function matchD(m: any, text: string): boolean {
  let pos = 0;
  const w = (p: string) => { if (!text.startsWith(p, pos)) return false; pos += p.length; return true; };
  if (!(w('<?xml version="1.0" encoding="UTF-8"?>\n<turn><turn-num>') && w(javaIntegerToString(m.turnNum)) && w('</turn-num><time-left>') && w(javaDoubleToString(m.timeLeft)) && w('</time-left><immediate-reward>') && w(javaDoubleToString(m.immediateReward)) && w('</immediate-reward>'))) return false;
  if (m.fluents === null) return w('<no-observed-fluents/></turn>') && pos === text.length;
  for (const f of m.fluents as WireFluent[]) {
    if (!(w('<observed-fluent><fluent-name>') && w(esc(f.name)) && w('</fluent-name>'))) return false;
    for (const a of f.args) if (!(w('<fluent-arg>') && w(esc(a)) && w('</fluent-arg>'))) return false;
    if (!(w('<fluent-value>') && w(esc(f.value)) && w('</fluent-value></observed-fluent>'))) return false;
  }
  return w('</turn>') && pos === text.length;
}
for (let k = 0; k < 3; k++) {
time('serC', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (const m of msgs) sink += serC(m).length; });
time('serC+compare', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (let i = 0; i < msgs.length; i++) sink += serC(msgs[i]!) === turns[i] ? 1 : 0; });
time('matchD', msgs.length * 10, () => { for (let r = 0; r < 10; r++) for (let i = 0; i < msgs.length; i++) sink += matchD(msgs[i]!, turns[i]!) ? 1 : 0; });
}
