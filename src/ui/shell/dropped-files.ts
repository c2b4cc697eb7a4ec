/**
 * The files of a drop, folders included: a dropped folder (a MASSim server's replay folder, a whole run
 * folder) is read entry by entry, and each file is named by its path inside the drop (`replays/x/0.json`),
 * so formats that read folders can tell which files belong together.
 */

/** A dropped file, named by its path inside the drop. */
export interface DroppedFile {
  name: string;
  content: Blob;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder: `readEntries` gives them in batches until it gives none. */
async function entriesOf(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const entries: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return entries;
    entries.push(...batch);
  }
}

async function collect(entry: FileSystemEntry, prefix: string, into: DroppedFile[]): Promise<void> {
  const path = `${prefix}${entry.name}`;
  if (entry.isFile) into.push({ name: path, content: await fileOf(entry as FileSystemFileEntry) });
  else if (entry.isDirectory)
    for (const child of await entriesOf(entry as FileSystemDirectoryEntry))
      await collect(child, `${path}/`, into);
}

/**
 * The entries of a drop, taken synchronously (the browser empties the DataTransfer once the drop event
 * returns), or undefined when the browser gives no entries (then the plain file list is all there is).
 */
export function droppedEntries(transfer: DataTransfer): FileSystemEntry[] | undefined {
  if (typeof DataTransferItem === 'undefined' || !('webkitGetAsEntry' in DataTransferItem.prototype))
    return undefined;
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  return entries.length > 0 ? entries : undefined;
}

/** The files under the dropped entries, in path order. */
export async function readDroppedEntries(entries: readonly FileSystemEntry[]): Promise<DroppedFile[]> {
  const files: DroppedFile[] = [];
  for (const entry of entries) await collect(entry, '', files);
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
