/**
 * RDDL files as rddlsim serves them: every `.rddl` file of a directory (not its subdirectories), or the
 * files and directories given on the command line. A file named twice (the same file by another path, or
 * inside a directory also given, or a copy with the same text, as when one file holding domain, non-fluents
 * and instance is given as both --domain and --instance) is read once. Files are parsed once to index which
 * domain, non-fluents and instance; an instance is then loaded from just the files it needs, and cached.
 * A server directory is indexed without parsing (a scan of the block headers, `scanRddlBlocks`) so the
 * server listens at once; its files are parsed when a session first asks for one of their instances, and
 * `checkAll` parses the rest afterwards to warn about broken files.
 * The session-init task is what the real server sends: the domain's file, a blank line, the instance's
 * file. With rddlsim's IPC 2018 layout (`server/` and `client/` subdirectories) the model comes from
 * `server/` and the task text from the file of the same name in `client/` (`null` when there is none).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ProtoplayError } from '../../../src/core/errors';
import type { RddlDiagnostic, RddlModel, RddlSource } from '../../../src/core/envs/rddl/api';
import { type BlockHeader, scanRddlBlocks } from '../../../src/core/envs/rddl/block-index';
import { loadRddl, parseRddl } from '../../../src/core/envs/rddl/index';
import { closestName } from '../../../src/core/envs/rddl/names';
import { rddlsimTaskText } from '../../../src/core/protocols/rddlsim/host';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { displayPath } from '../../command-line/display-path';

/** An instance ready to serve. */
export interface LoadedInstance {
  model: RddlModel;
  /** session-init's task text, or null when the real server could not read it (it then sends `null`). */
  task: string | null;
  /** What loading found worth saying without stopping (located), e.g. what only rddlsim's semantics run. */
  warnings: readonly RddlDiagnostic[];
}

/** One parsed file. */
interface IndexedFile {
  /** The path as the user would write it; used in error locations. */
  path: string;
  text: string;
  blocks: BlockHeader[];
  /** The text the task uses for this file (the `client/` copy in the IPC 2018 layout). */
  taskText: string | null;
  /** False while only its headers were scanned (a server directory), true once parsed without error. */
  parsed: boolean;
  /** Set when parsing found a syntax error (lenient mode): the file is then left out. */
  broken?: true;
}

/** How strictly problems in files are treated. */
export interface LibraryOptions {
  /** Directory relative paths are resolved against. */
  cwd: string;
  /**
   * `strict`: the first syntax error in any file stops loading (for files the user named). `lenient`:
   * files with errors are left out with a warning and the rest is served.
   */
  mode: 'strict' | 'lenient';
}

/** A set of RDDL files indexed by the blocks they define. */
export class RddlLibrary {
  /** Files left out (lenient mode), each as a located one-line message. */
  readonly warnings: string[];
  readonly #files: IndexedFile[];
  readonly #cache = new Map<string, LoadedInstance>();
  readonly #sources = new Map<string, RddlSource[]>();
  /** A path given for a file already read under another path -> the path it was read under. */
  readonly #aliases: ReadonlyMap<string, string>;

  private constructor(files: IndexedFile[], warnings: string[], aliases: ReadonlyMap<string, string>) {
    this.#files = files;
    this.warnings = warnings;
    this.#aliases = aliases;
  }

  /** Files and directories (their `.rddl` files, not recursively), in the order given. */
  static async fromPaths(paths: readonly string[], options: LibraryOptions): Promise<RddlLibrary> {
    const files: { path: string; text: string }[] = [];
    const aliases = new Map<string, string>();
    // Keyed by resolved path and by text: either match means the file is already in.
    const byPath = new Map<string, string>();
    const byText = new Map<string, string>();
    const add = async (absolute: string, path: string) => {
      const known = byPath.get(absolute);
      if (known !== undefined) {
        if (known !== path) aliases.set(path, known);
        return;
      }
      const text = await readText(absolute, path);
      const copy = byText.get(text);
      byPath.set(absolute, copy ?? path);
      if (copy !== undefined) {
        aliases.set(path, copy);
        return;
      }
      byText.set(text, path);
      files.push({ path, text });
    };
    for (const path of paths) {
      const absolute = resolve(options.cwd, path);
      if (await isDirectory(absolute, path)) {
        for (const name of await rddlFilesIn(absolute, path))
          await add(join(absolute, name), join(path, name));
      } else await add(absolute, path);
    }
    return RddlLibrary.#index(
      files.map((file) => ({ ...file, taskText: file.text })),
      options,
      aliases,
    );
  }

  /** A server directory as rddlsim's server reads it, including the `server/` + `client/` layout. */
  static async fromServerDirectory(dir: string, options: LibraryOptions): Promise<RddlLibrary> {
    const absolute = resolve(options.cwd, dir);
    if (!(await isDirectory(absolute, dir))) throw usageError(`--rddl-dir '${dir}' is not a directory`);
    const entries = await readdir(absolute, { withFileTypes: true });
    const has = (name: string) => entries.some((entry) => entry.isDirectory() && entry.name === name);
    const modelDir = has('server') && has('client') ? join(dir, 'server') : dir;
    const taskDir = modelDir === dir ? undefined : join(dir, 'client');
    const files = [];
    for (const name of await rddlFilesIn(resolve(options.cwd, modelDir), modelDir)) {
      const path = join(modelDir, name);
      const text = await readText(resolve(options.cwd, path), path);
      const taskText = taskDir
        ? await readFile(resolve(options.cwd, taskDir, name), 'utf8').catch(() => null)
        : text;
      files.push({ path: displayPath(path, options.cwd), text, taskText });
    }
    const indexed = files.map((file) => ({ ...file, blocks: scanRddlBlocks(file.text), parsed: false }));
    return new RddlLibrary(indexed, [], new Map());
  }

  static #index(
    files: Omit<IndexedFile, 'blocks' | 'parsed'>[],
    { mode }: LibraryOptions,
    aliases: ReadonlyMap<string, string>,
  ): RddlLibrary {
    const indexed: IndexedFile[] = [];
    const warnings: string[] = [];
    for (const file of files) {
      const parsed = parseFile(file);
      if (parsed instanceof ProtoplayError) {
        if (mode === 'strict') throw parsed;
        warnings.push(`${parsed.format()} (file left out)`);
        continue;
      }
      if (mode === 'strict') refuseDuplicateBlocks(indexed, file.path, parsed);
      indexed.push({ ...file, blocks: parsed, parsed: true });
    }
    return new RddlLibrary(indexed, warnings, aliases);
  }

  /**
   * Parses every file not parsed yet, one per turn of the event loop so sessions being served go on, and
   * leaves out those with syntax errors: each is added to `warnings` (and given to `onWarning`) as a
   * located one-line message. Stops early when `signal` is aborted.
   */
  async checkAll(onWarning?: (warning: string) => void, signal?: AbortSignal): Promise<void> {
    for (const file of this.#files) {
      if (signal?.aborted) return;
      if (file.parsed || file.broken) continue;
      await new Promise((next) => setImmediate(next));
      this.#parseNow(file, onWarning);
    }
  }

  /** Parses a file that was only scanned; its located syntax error when it is broken (now left out). */
  #parseNow(file: IndexedFile, onWarning?: (warning: string) => void): ProtoplayError | undefined {
    if (file.parsed || file.broken) return undefined;
    const parsed = parseFile(file);
    if (parsed instanceof ProtoplayError) {
      file.broken = true;
      const warning = `${parsed.format()} (file left out)`;
      this.warnings.push(warning);
      onWarning?.(warning);
      return parsed;
    }
    file.blocks = parsed;
    file.parsed = true;
    return undefined;
  }

  /** Every instance name, in file order. */
  instanceNames(): string[] {
    return this.#usable().flatMap((file) =>
      file.blocks.filter((b) => b.kind === 'instance').map((b) => b.name),
    );
  }

  /** Instance names defined in the given files (paths as given to `fromPaths`), each once. */
  instancesInFiles(paths: readonly string[]): string[] {
    const read = new Set(paths.map((path) => this.#aliases.get(path) ?? path));
    return this.#files
      .filter((file) => read.has(file.path))
      .flatMap((file) => file.blocks.filter((b) => b.kind === 'instance').map((b) => b.name));
  }

  /** True when an instance of that exact name exists. */
  has(instance: string): boolean {
    return this.#find('instance', instance) !== undefined;
  }

  /**
   * Loads an instance (once; later calls return the same model). Throws a located ProtoplayError for
   * problems in the RDDL, and a CliError when the instance does not exist.
   */
  load(instance: string, options: { rddlsimSemantics?: boolean } = {}): LoadedInstance {
    // rddlsim's semantics accept some domains the language's refuse (see loadRddl), so each has its model.
    const rddlsimSemantics = options.rddlsimSemantics ?? false;
    const key = `${rddlsimSemantics ? 'rddlsim' : 'protoplay'} ${instance}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const instanceFile = this.#find('instance', instance);
    if (!instanceFile) {
      const names = this.instanceNames();
      throw new CliError(
        ExitCode.usage,
        names.length
          ? `no instance named '${instance}'; the files define ${preview(names)}`
          : `no instance named '${instance}': the files define no instance`,
      );
    }
    const block = instanceFile.blocks.find((b) => b.kind === 'instance' && b.name === instance)!;
    const needed = new Set<IndexedFile>();
    if (block.domain !== undefined) {
      // A misspelt name brings the file of the closest one, for loadRddl's "did you mean".
      const domainFile = this.#find('domain', block.domain) ?? this.#findClosest('domain', block.domain);
      if (domainFile) needed.add(domainFile);
    }
    if (block.nonFluents !== undefined) {
      const nonFluentsFile =
        this.#find('non-fluents', block.nonFluents) ?? this.#findClosest('non-fluents', block.nonFluents);
      if (nonFluentsFile) needed.add(nonFluentsFile);
    }
    needed.add(instanceFile);
    for (const file of needed) {
      const error = this.#parseNow(file);
      if (error) throw error;
    }
    // A missing domain or non-fluents block is reported by loadRddl, located at the reference.
    const sources: RddlSource[] = [...needed].map((file) => ({ name: file.path, text: file.text }));
    const model = loadRddl(sources, { instance, rddlsimQuirks: rddlsimSemantics });
    this.#sources.set(instance, sources);
    const domainFile = this.#find('domain', model.info.domain);
    const task =
      domainFile?.taskText != null && instanceFile.taskText !== null
        ? rddlsimTaskText(domainFile.taskText, instanceFile.taskText)
        : null;
    const loaded = { model, task, warnings: model.warnings };
    this.#cache.set(key, loaded);
    return loaded;
  }

  /** The texts an instance was loaded from (its domain, non-fluents and instance files), after `load`. */
  sources(instance: string): RddlSource[] {
    const sources = this.#sources.get(instance);
    if (!sources) throw new Error(`instance '${instance}' is not loaded`);
    return sources;
  }

  #find(kind: BlockHeader['kind'], name: string): IndexedFile | undefined {
    return this.#usable().find((file) => file.blocks.some((b) => b.kind === kind && b.name === name));
  }

  /** The file of the block of that kind whose name is closest to `name`, when one is close enough. */
  #findClosest(kind: BlockHeader['kind'], name: string): IndexedFile | undefined {
    const names = this.#usable().flatMap((file) =>
      file.blocks.filter((b) => b.kind === kind).map((b) => b.name),
    );
    const closest = closestName(name, names);
    return closest === undefined ? undefined : this.#find(kind, closest);
  }

  #usable(): IndexedFile[] {
    return this.#files.filter((file) => !file.broken);
  }
}

/** A file's block headers, or its first syntax error, located. */
function parseFile(file: { path: string; text: string }): BlockHeader[] | ProtoplayError {
  const { file: parsed, diagnostics } = parseRddl({ name: file.path, text: file.text });
  const error = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  if (error)
    return new ProtoplayError('rddl-syntax', error.message, { source: file.path, ...error.location });
  return parsed.blocks.map((block) => ({
    kind: block.kind,
    name: block.name,
    nameLoc: { line: block.nameLoc.line, column: block.nameLoc.column },
    ...(block.kind !== 'domain' ? { domain: block.domain } : {}),
    ...(block.kind === 'instance' && block.nonFluents !== undefined ? { nonFluents: block.nonFluents } : {}),
  }));
}

/**
 * Two different files defining a block of the same name (rddlsim refuses the pair): the second one's name
 * is located, and the first one's place given.
 */
function refuseDuplicateBlocks(
  indexed: readonly IndexedFile[],
  path: string,
  blocks: readonly BlockHeader[],
): void {
  for (const block of blocks) {
    for (const earlier of indexed) {
      const first = earlier.blocks.find((b) => b.kind === block.kind && b.name === block.name);
      if (!first) continue;
      const what = block.kind === 'non-fluents' ? 'non-fluents block' : block.kind;
      throw new ProtoplayError(
        'rddl-semantic',
        `${what} '${block.name}' is defined again here; it is already defined at ${earlier.path}:${first.nameLoc.line}:${first.nameLoc.column}`,
        { ...block.nameLoc, source: path },
      );
    }
  }
}

async function isDirectory(absolute: string, path: string): Promise<boolean> {
  try {
    return (await stat(absolute)).isDirectory();
  } catch (error) {
    throw usageError(`cannot read '${path}': ${describeFsError(error)}`);
  }
}

async function rddlFilesIn(absolute: string, path: string): Promise<string[]> {
  try {
    const entries = await readdir(absolute, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.rddl'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw usageError(`cannot read the directory '${path}': ${describeFsError(error)}`);
  }
}

async function readText(absolute: string, path: string): Promise<string> {
  try {
    return await readFile(absolute, 'utf8');
  } catch (error) {
    throw usageError(`cannot read '${path}': ${describeFsError(error)}`);
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return code ?? String(error);
}

function preview(names: readonly string[]): string {
  return names.length <= 10
    ? names.join(', ')
    : `${names.slice(0, 10).join(', ')}, ... (${names.length} in all)`;
}
