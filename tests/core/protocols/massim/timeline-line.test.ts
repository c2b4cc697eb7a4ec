/**
 * Timeline lines as recorders write them are read by their head and the text's literal: the entry must be
 * what parsing the whole line gives, and any other line must still be read (or refused) as a whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTimelineLine, timelineConnection } from '../../../../src/core/protocols/massim/timeline-import';
import { recordedRuns, recordingsRoot } from './recordings';

/** The entry of a line read whole, or the error's message. */
function readWhole(line: string, conn: string | undefined) {
  try {
    const json = JSON.parse(line) as { t?: unknown; conn?: unknown; dir?: unknown; text?: unknown };
    const connection = typeof json.conn === 'string' ? json.conn : conn;
    if (
      typeof json.t !== 'number' ||
      typeof json.text !== 'string' ||
      typeof connection !== 'string' ||
      !['c2s', 's2c', 'event'].includes(String(json.dir))
    )
      return 'refused';
    return { t: json.t, conn: connection, dir: json.dir, text: json.text };
  } catch {
    return 'refused';
  }
}

function read(line: string, conn: string | undefined) {
  try {
    return parseTimelineLine(line, 'x.timeline.jsonl', 1, conn);
  } catch {
    return 'refused';
  }
}

describe('timeline lines', () => {
  it('read every recorded line as parsing it whole does', () => {
    let lines = 0;
    const check = (path: string, conn: string | undefined) => {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        expect(read(line, conn)).toEqual(readWhole(line, conn));
        lines++;
      }
    };
    // bye-race was recorded per connection only.
    for (const run of ['basic', 'events', 'multisim', 'probes'])
      check(join(recordingsRoot, run, 'all.timeline.jsonl'), undefined);
    for (const run of recordedRuns) {
      const folder = join(recordingsRoot, run, 'connections');
      for (const name of readdirSync(folder).filter((file) => file.endsWith('.timeline.jsonl')))
        check(join(folder, name), timelineConnection(name));
    }
    expect(lines).toBeGreaterThan(1000);
  });

  it.each([
    [
      'escapes in the text',
      String.raw`{"t":5,"conn":"a.conn1","dir":"c2s","text":"{\"p\":[\"\\\"}\"]}\u00e9"}`,
    ],
    ['a key after the text', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"x","dir":"s2c"}'],
    ['the text twice', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"x","text":"y"}'],
    ['a text that is not a string', '{"t":5,"conn":"a.conn1","dir":"c2s","text":{"a":1}}'],
    ['a cut text', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"x}'],
    ['an unescaped quote', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"a"b"}'],
    ['a carriage return at the end', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"x"}\r'],
    ['spaces', '{"t": 5, "conn": "a.conn1", "dir": "s2c", "text": "x"}'],
    ['a fractional time', '{"t":5.5,"conn":"a.conn1","dir":"event","text":"connected"}'],
    ['a huge time', '{"t":12345678901234567,"conn":"a.conn1","dir":"c2s","text":"x"}'],
    ['an escaped connection', String.raw`{"t":5,"conn":"a\u002econn1","dir":"c2s","text":"x"}`],
    ['no connection', '{"t":5,"dir":"c2s","text":"x"}'],
    ['another direction', '{"t":5,"conn":"a.conn1","dir":"up","text":"x"}'],
    ['trailing text', '{"t":5,"conn":"a.conn1","dir":"c2s","text":"x"} }'],
  ])('read a line with %s as parsing it whole does', (_, line) => {
    expect(read(line, undefined)).toEqual(readWhole(line, undefined));
    // In a connection's own file, a line without "conn" is that connection's.
    expect(read(line, 'own.conn2')).toEqual(readWhole(line, 'own.conn2'));
  });
});
