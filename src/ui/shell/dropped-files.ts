/**
 * The files of a drop, folders included: a dropped folder (a MASSim server's replay folder, a whole run
 * folder) is read entry by entry, and each file is named by its path inside the drop (`replays/x/0.json`),
 * so formats that read folders can tell which files belong together. A file or folder the browser will not
 * read is skipped and named, with the browser's reason; everything else in the drop is still read.
 */

/** A dropped file, named by its path inside the drop. */
export interface DroppedFile {
  name: string;
  content: Blob;
}

/** A part of a drop that could not be read: its path inside the drop, and why. */
export interface UnreadableDrop {
  name: string;
  reason: string;
}

/** What a drop held. */
export interface DropContents {
  /** In path order. */
  files: DroppedFile[];
  unreadable: UnreadableDrop[];
}

/**
 * One thing dropped: a file or folder entry, or a file the browser gives without an entry (a browser
 * without `webkitGetAsEntry`, or a file that is not on a disk).
 */
export type DroppedItem = FileSystemEntry | File;

const reasonOf = (error: unknown) =>
  error instanceof Error || error instanceof DOMException
    ? error.message || error.name
    : String(error ?? 'no reason given');

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/**
 * Every entry of a folder: `readEntries` gives them in batches (Chromium: 100 at a time) until it gives
 * none. When a batch fails, the entries before it are kept and the failure is given with them.
 */
async function entriesOf(
  folder: FileSystemDirectoryEntry,
): Promise<{ entries: FileSystemEntry[]; failure?: unknown }> {
  const entries: FileSystemEntry[] = [];
  try {
    const reader = folder.createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
        reader.readEntries(resolve, reject),
      );
      if (batch.length === 0) return { entries };
      entries.push(...batch);
    }
  } catch (error) {
    return { entries, failure: error ?? new Error('the browser gave no reason') };
  }
}

async function collect(entry: FileSystemEntry, prefix: string, into: DropContents): Promise<void> {
  const path = `${prefix}${entry.name}`;
  if (entry.isFile) {
    try {
      into.files.push({ name: path, content: await fileOf(entry as FileSystemFileEntry) });
    } catch (error) {
      into.unreadable.push({ name: path, reason: `the file could not be read: ${reasonOf(error)}` });
    }
  } else if (entry.isDirectory) {
    const { entries, failure } = await entriesOf(entry as FileSystemDirectoryEntry);
    if (failure !== undefined)
      into.unreadable.push({
        name: `${path}/`,
        reason: `the folder could not be listed${entries.length ? ` past its first ${entries.length} entries` : ''}: ${reasonOf(failure)}`,
      });
    // The entries of one folder are read together: a folder of a thousand step files is not read one by one.
    await Promise.all(entries.map((child) => collect(child, `${path}/`, into)));
  }
}

/**
 * What a drop holds, taken synchronously (the browser empties the DataTransfer once the drop event returns):
 * the entry of each dropped file or folder, or the file itself when the browser gives no entry for it.
 */
export function droppedItems(transfer: DataTransfer): DroppedItem[] {
  if (!transfer.items) return [...transfer.files];
  const items: DroppedItem[] = [];
  for (const item of transfer.items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    const file = entry ? null : item.getAsFile();
    if (entry) items.push(entry);
    else if (file) items.push(file);
  }
  return items;
}

/** The files under the dropped items, in path order, and the parts that could not be read. Never rejects. */
export async function readDropped(items: readonly DroppedItem[]): Promise<DropContents> {
  const contents: DropContents = { files: [], unreadable: [] };
  await Promise.all(
    items.map((item) =>
      item instanceof Blob
        ? contents.files.push({ name: item.name, content: item })
        : collect(item, '', contents),
    ),
  );
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  contents.files.sort(byName);
  contents.unreadable.sort(byName);
  return contents;
}

/** One sentence on the parts of a drop that could not be read (the first few named), or '' when none. */
export function describeUnreadable(unreadable: readonly UnreadableDrop[], named = 3): string {
  if (unreadable.length === 0) return '';
  const shown = unreadable.slice(0, named).map(({ name, reason }) => `${name} (${reason})`);
  const more = unreadable.length - shown.length;
  const count = unreadable.length === 1 ? '1 part' : `${unreadable.length} parts`;
  return `${count} of the drop could not be read and ${unreadable.length === 1 ? 'was' : 'were'} skipped: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}
