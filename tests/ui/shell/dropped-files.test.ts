import { describe, expect, it } from 'vitest';
import {
  describeUnreadable,
  droppedItems,
  readDropped,
  type DropContents,
} from '../../../src/ui/shell/dropped-files';

/**
 * Entries shaped like the browser's (`FileSystemEntry`): callbacks come later, never at once, a folder's
 * reader gives its entries in batches and then an empty one, and, as Chromium's, refuses a second
 * `readEntries` while one is pending and counts every call.
 */
interface FakeFolder {
  entry: FileSystemDirectoryEntry;
  /** `readEntries` calls so far, and the ones after the reader had said it was done. */
  calls: { total: number; afterEnd: number };
}

const later = (run: () => void) => setTimeout(run, 0);

function fileEntry(name: string, text: string | Error): FileSystemEntry {
  return {
    name,
    isFile: true,
    isDirectory: false,
    file(ok: (file: File) => void, fail: (error: Error) => void) {
      later(() => (text instanceof Error ? fail(text) : ok(new File([text], name))));
    },
  } as unknown as FileSystemEntry;
}

function folder(
  name: string,
  children: FileSystemEntry[],
  options: { batch?: number; failOnCall?: number; failure?: unknown; createFails?: Error } = {},
): FakeFolder {
  const batch = options.batch ?? 100;
  const calls = { total: 0, afterEnd: 0 };
  const entry = {
    name,
    isFile: false,
    isDirectory: true,
    createReader() {
      if (options.createFails) throw options.createFails;
      let at = 0;
      let pending = false;
      let ended = false;
      return {
        readEntries(ok: (entries: FileSystemEntry[]) => void, fail: (error: unknown) => void) {
          calls.total++;
          if (ended) calls.afterEnd++;
          if (pending) {
            later(() => fail(new DOMException('A read is already pending', 'InvalidStateError')));
            return;
          }
          pending = true;
          const call = calls.total;
          later(() => {
            pending = false;
            if (call === options.failOnCall) return fail(options.failure);
            const next = children.slice(at, at + batch);
            at += next.length;
            if (next.length === 0) ended = true;
            ok(next);
          });
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
  return { entry, calls };
}

const names = (contents: DropContents) => contents.files.map((file) => file.name);
const textOf = async (contents: DropContents, name: string) =>
  contents.files.find((file) => file.name === name)?.content.text();

describe('readDropped', () => {
  it('names a dropped file by its own name and keeps its bytes', async () => {
    const contents = await readDropped([fileEntry('match.log', 'percept\0')]);
    expect(names(contents)).toEqual(['match.log']);
    expect(await textOf(contents, 'match.log')).toBe('percept\0');
    expect(contents.unreadable).toEqual([]);
  });

  it('reads a folder to its end: readEntries is called until it gives an empty batch, and not after', async () => {
    const steps = Array.from({ length: 250 }, (_, i) => fileEntry(`${i * 5}.json`, `{"step":${i}}`));
    const replay = folder('2026-11-21-20-50-20_A_B', [fileEntry('static.json', '{}'), ...steps]);
    const contents = await readDropped([replay.entry]);
    expect(contents.files).toHaveLength(251);
    expect(new Set(names(contents)).size).toBe(251);
    expect(names(contents)).toContain('2026-11-21-20-50-20_A_B/static.json');
    expect(names(contents)).toContain('2026-11-21-20-50-20_A_B/1245.json');
    expect(await textOf(contents, '2026-11-21-20-50-20_A_B/1245.json')).toBe('{"step":249}');
    // 100 + 100 + 51, then the empty batch that says the folder is done.
    expect(replay.calls).toEqual({ total: 4, afterEnd: 0 });
  });

  it('reads a folder whose reader gives one entry at a time', async () => {
    const one = folder(
      'run',
      ['a', 'b', 'c'].map((n) => fileEntry(n, n)),
      { batch: 1 },
    );
    expect(names(await readDropped([one.entry]))).toEqual(['run/a', 'run/b', 'run/c']);
    expect(one.calls.total).toBe(4);
  });

  it('walks subfolders, naming each file by its path inside the drop, in path order', async () => {
    const inner = folder('run-1', [fileEntry('x.s2c.raw', 's2c'), fileEntry('x.c2s.raw', 'c2s')]);
    const deeper = folder('deeper', [folder('deepest', [fileEntry('z.json', 'z')]).entry]);
    const outer = folder('captures', [fileEntry('notes.txt', 'n'), inner.entry, deeper.entry]);
    const contents = await readDropped([outer.entry, fileEntry('alone.json', '{}')]);
    expect(names(contents)).toEqual([
      'alone.json',
      'captures/deeper/deepest/z.json',
      'captures/notes.txt',
      'captures/run-1/x.c2s.raw',
      'captures/run-1/x.s2c.raw',
    ]);
    expect(await textOf(contents, 'captures/run-1/x.c2s.raw')).toBe('c2s');
    expect(contents.unreadable).toEqual([]);
  });

  it('gives nothing for an empty folder, and no error', async () => {
    const empty = folder('replays', []);
    const contents = await readDropped([empty.entry]);
    expect(contents).toEqual({ files: [], unreadable: [] });
    expect(empty.calls.total).toBe(1);
  });

  it('skips a file the browser will not read, names it with the reason, and keeps the rest', async () => {
    const gone = new DOMException('A requested file or directory could not be found', 'NotFoundError');
    const run = folder('run', [fileEntry('a.raw', 'a'), fileEntry('b.raw', gone), fileEntry('c.raw', 'c')]);
    const contents = await readDropped([run.entry]);
    expect(names(contents)).toEqual(['run/a.raw', 'run/c.raw']);
    expect(contents.unreadable).toEqual([
      {
        name: 'run/b.raw',
        reason: 'the file could not be read: A requested file or directory could not be found',
      },
    ]);
  });

  it('keeps the entries of a folder listed before its listing failed, and says how far it got', async () => {
    const many = Array.from({ length: 150 }, (_, i) => fileEntry(`f${String(i).padStart(3, '0')}`, ''));
    const broken = folder('big', many, { failOnCall: 2, failure: new Error('I/O error') });
    const contents = await readDropped([broken.entry, fileEntry('other.json', '{}')]);
    expect(contents.files).toHaveLength(101);
    expect(names(contents)[0]).toBe('big/f000');
    expect(names(contents)).toContain('other.json');
    expect(contents.unreadable).toEqual([
      { name: 'big/', reason: 'the folder could not be listed past its first 100 entries: I/O error' },
    ]);
    expect(broken.calls.total).toBe(2);
  });

  it('names a folder that cannot be listed at all, with whatever reason the browser gave', async () => {
    const locked = folder('locked', [fileEntry('a', 'a')], { failOnCall: 1, failure: undefined });
    const unopenable = folder('unopenable', [], { createFails: new Error('security error') });
    const contents = await readDropped([locked.entry, unopenable.entry]);
    expect(contents.files).toEqual([]);
    expect(contents.unreadable).toEqual([
      { name: 'locked/', reason: 'the folder could not be listed: the browser gave no reason' },
      { name: 'unopenable/', reason: 'the folder could not be listed: security error' },
    ]);
  });

  it('keeps files the browser gives without an entry beside the entries of the same drop', async () => {
    const plain = new File(['{"messages":[]}'], 'transcript.json');
    const contents = await readDropped([plain, folder('run', [fileEntry('a.raw', 'a')]).entry]);
    expect(names(contents)).toEqual(['run/a.raw', 'transcript.json']);
    expect(contents.files.find((file) => file.name === 'transcript.json')?.content).toBe(plain);
  });

  it('ignores an entry that is neither file nor folder', async () => {
    const odd = { name: 'socket', isFile: false, isDirectory: false } as unknown as FileSystemEntry;
    expect(await readDropped([odd, fileEntry('a', 'a')])).toEqual({
      files: [expect.objectContaining({ name: 'a' })],
      unreadable: [],
    });
  });
});

describe('droppedItems', () => {
  const entryItem = (entry: FileSystemEntry | null, file: File | null = null) =>
    ({
      kind: 'file',
      webkitGetAsEntry: () => entry,
      getAsFile: () => file,
    }) as unknown as DataTransferItem;

  it('takes the entry of each dropped file or folder, the file when there is no entry, and skips text', () => {
    const replay = folder('replay', []).entry;
    const plain = new File(['x'], 'pasted.txt');
    const transfer = {
      items: [
        entryItem(replay),
        {
          kind: 'string',
          type: 'text/uri-list',
          webkitGetAsEntry: () => null,
        } as unknown as DataTransferItem,
        entryItem(null, plain),
        entryItem(null, null),
      ],
      files: [],
    } as unknown as DataTransfer;
    expect(droppedItems(transfer)).toEqual([replay, plain]);
  });

  it('takes the files themselves from a browser without webkitGetAsEntry or without items', () => {
    const a = new File(['a'], 'a.raw');
    const b = new File(['b'], 'b.raw');
    const withoutEntries = {
      items: [
        { kind: 'file', getAsFile: () => a },
        { kind: 'file', getAsFile: () => b },
      ],
      files: [a, b],
    } as unknown as DataTransfer;
    expect(droppedItems(withoutEntries)).toEqual([a, b]);
    expect(droppedItems({ files: [a, b] } as unknown as DataTransfer)).toEqual([a, b]);
  });
});

describe('describeUnreadable', () => {
  const part = (name: string) => ({ name, reason: 'the file could not be read: gone' });

  it('says nothing when everything was read', () => {
    expect(describeUnreadable([])).toBe('');
  });

  it('names one part with its reason', () => {
    expect(describeUnreadable([part('run/b.raw')])).toBe(
      '1 part of the drop could not be read and was skipped: run/b.raw (the file could not be read: gone).',
    );
  });

  it('names the first few parts and counts the others', () => {
    const text = describeUnreadable(['a', 'b', 'c', 'd', 'e'].map(part));
    expect(text).toMatch(/^5 parts of the drop could not be read and were skipped: a \(/);
    expect(text).toContain('; c (');
    expect(text).not.toContain('d (');
    expect(text).toMatch(/; and 2 more\.$/);
  });
});
