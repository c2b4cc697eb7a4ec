import { describe, expect, it } from 'vitest';
import { importRawStreams, importRddlsimWireText } from '../../../../src/core/protocols/rddlsim/raw-import';
import type { Transcript } from '../../../../src/core/transcript/model';
import { MAIN_SESSIONS, loadRecording, recordingBytes } from './recordings';

/** Direction and text of the data messages, in order. */
const dataOf = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text, m.framing]);

describe('importRawStreams', () => {
  it.each([...MAIN_SESSIONS, 'edge-cases/javaclient_term'])(
    'orders the c2s/s2c pair of %s as the timed recording does',
    (name) => {
      const raw = importRawStreams(
        { c2s: recordingBytes(`${name}.c2s.raw`), s2c: recordingBytes(`${name}.s2c.raw`) },
        { name },
      );
      expect(dataOf(raw)).toEqual(dataOf(loadRecording(name)));
      expect(raw.meta).toMatchObject({ timing: 'unknown', source: name });
      expect(raw.messages.every((m) => m.t === 0)).toBe(true);
    },
  );
});

describe('importRddlsimWireText', () => {
  it('finds messages by root element, tells directions by root, and keeps NUL framing when present', () => {
    const pasted = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<session-request><problem-name>p</problem-name><client-name>c</client-name></session-request>\0',
      '\n<session-init><task>AA==</task><session-id>1</session-id><num-rounds>1</num-rounds><time-allowed>1.0</time-allowed></session-init>\n',
      '<round-request/>\n',
    ].join('');
    const transcript = importRddlsimWireText(pasted);
    expect(transcript.messages.map((m) => [m.dir, m.framing])).toEqual([
      ['c2s', undefined],
      ['s2c', 'none'],
      ['c2s', 'none'],
    ]);
    expect(transcript.messages[1]!.text).toMatch(/^\n<session-init>/);
  });

  it('says which pasted message is not rddlsim', () => {
    expect(() => importRddlsimWireText('<round-request/><html/>')).toThrow(
      'message 2 is not an rddlsim message: <html/>',
    );
  });
});
