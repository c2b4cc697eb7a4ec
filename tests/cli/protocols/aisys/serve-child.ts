/**
 * `protoplay serve aisys` as a child process for the tests that talk to it over real HTTP: started on a
 * free port with an agent config file, resolved once both the listening line and the config are written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN } from '../../run-cli';

/** A running `serve aisys`. */
export interface ServedAisys {
  process: ChildProcess;
  /** Resolves with its exit code once it exits. */
  exited: Promise<number | null>;
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  port: number;
  /** The folder the config (and any other file of the test) is in; removed by `stop`. */
  dir: string;
  /** The agent config file it wrote (`agent`, `env`, `pwd`, `url`). */
  config: string;
  /** The agent's password, from the config. */
  pwd: string;
  stop(): Promise<void>;
}

/**
 * Starts `serve aisys --env <env> --agent ann` with `more` arguments (each may name a file in the
 * folder it is given); its stderr (a log line per refused connection...) goes to the test's unless `quiet`.
 */
export async function serveAisys(
  env: string,
  { more = () => [], quiet = false }: { more?: (dir: string) => string[]; quiet?: boolean } = {},
): Promise<ServedAisys> {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-aisys-serve-'));
  const config = join(dir, 'agent.json');
  const child = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      'aisys',
      '--port',
      '0',
      '--env',
      env,
      '--agent',
      'ann',
      '--agent-config',
      config,
      ...more(dir),
    ],
    { stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // The config file is written right after the listening line: wait for both.
  const url = await new Promise<string>((resolve, reject) => {
    let listening: string | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      listening ??= /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
      if (listening && line.includes('agent config written')) resolve(listening);
    });
    void exited.then((code) => reject(new Error(`serve exited early with ${code}`)));
  });
  const pwd = (JSON.parse(await readFile(config, 'utf8')) as { pwd: string }).pwd;
  return {
    process: child,
    exited,
    url,
    port: Number(new URL(url).port),
    dir,
    config,
    pwd,
    async stop() {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
