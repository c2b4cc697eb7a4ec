/**
 * RDDL files as the command line reads them: directories like rddlsim's server (including its `server/`
 * + `client/` layout), files named on the command line, syntax errors located in their file.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import { CliError, ExitCode } from '../../../../cli/command-line/exit-codes';
import { RddlLibrary } from '../../../../cli/protocols/rddlsim/rddl-library';
import { BIN } from '../../run-cli';

const DOMAIN = `domain tiny_mdp {
  requirements = { reward-deterministic };
  pvariables {
    on : { state-fluent, bool, default = false };
    flip : { action-fluent, bool, default = false };
  };
  cpfs {
    on' = if (flip) then ~on else on;
  };
  reward = if (on) then 1 else 0;
}
`;
const instance = (name: string) => `instance ${name} {
  domain = tiny_mdp;
  max-nondef-actions = 1;
  horizon = 5;
  discount = 1.0;
}
`;
/** A syntax error on line 2, column 14 (the `;` where `{` must come). */
const BROKEN = 'domain broken_mdp {\n  pvariables ;\n}\n';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-library-'));
  await mkdir(join(dir, 'plain'));
  await writeFile(join(dir, 'plain', 'tiny_mdp.rddl'), DOMAIN);
  await writeFile(join(dir, 'plain', 'tiny_inst_1.rddl'), instance('tiny_inst_1'));
  await writeFile(join(dir, 'plain', 'notes.txt'), 'not RDDL');
  await writeFile(join(dir, 'plain', 'broken.rddl'), BROKEN);
  // rddlsim's IPC 2018 layout: the model from server/, the task text from client/.
  for (const side of ['server', 'client']) await mkdir(join(dir, 'split', side), { recursive: true });
  await writeFile(join(dir, 'split', 'server', 'tiny_mdp.rddl'), DOMAIN);
  await writeFile(join(dir, 'split', 'server', 'tiny_inst_1.rddl'), instance('tiny_inst_1'));
  await writeFile(join(dir, 'split', 'server', 'tiny_inst_2.rddl'), instance('tiny_inst_2'));
  await writeFile(join(dir, 'split', 'client', 'tiny_mdp.rddl'), `// as the client sees it\n${DOMAIN}`);
  await writeFile(join(dir, 'split', 'client', 'tiny_inst_1.rddl'), instance('tiny_inst_1'));
  // One file holding domain and instance, and a copy of it under another name.
  await mkdir(join(dir, 'single'));
  await writeFile(join(dir, 'single', 'tiny_all.rddl'), `${DOMAIN}\n${instance('tiny_all')}`);
  await writeFile(join(dir, 'single', 'tiny_all_copy.rddl'), `${DOMAIN}\n${instance('tiny_all')}`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RddlLibrary', () => {
  it('serves a directory, leaving out a broken file with a located warning', async () => {
    const library = await RddlLibrary.fromServerDirectory('plain', { cwd: dir, mode: 'lenient' });
    expect(library.instanceNames()).toEqual(['tiny_inst_1']);
    // Indexed without parsing: the broken file is found when the files are checked.
    expect(library.warnings).toEqual([]);
    const reported: string[] = [];
    await library.checkAll((warning) => reported.push(warning));
    expect(library.warnings).toEqual([
      expect.stringMatching(/^plain\/broken\.rddl:2:14: .* \(file left out\)$/),
    ]);
    expect(reported).toEqual(library.warnings);
    const { model, task } = library.load('tiny_inst_1');
    expect(model.info.horizon).toBe(5);
    // What rddlsim's server sends: the domain's file, a blank line, the instance's file, a newline.
    expect(task).toBe(`${DOMAIN}\n\n${instance('tiny_inst_1')}\n`);
    expect(library.load('tiny_inst_1')).toBe(library.load('tiny_inst_1'));
  });

  it('parses a served file only when asked for one of its instances, and leaves it out if broken', async () => {
    const lazy = join(dir, 'lazy');
    await mkdir(lazy);
    await writeFile(join(lazy, 'tiny_mdp.rddl'), DOMAIN);
    await writeFile(join(lazy, 'tiny_inst_1.rddl'), instance('tiny_inst_1'));
    // Its header names an instance; its body has a syntax error on line 3.
    await writeFile(
      join(lazy, 'tiny_inst_bad.rddl'),
      'instance tiny_inst_bad {\n  domain = tiny_mdp;\n  horizon = ;\n}\n',
    );
    const library = await RddlLibrary.fromServerDirectory('lazy', { cwd: dir, mode: 'lenient' });
    expect(library.instanceNames()).toEqual(['tiny_inst_1', 'tiny_inst_bad']);
    expect(library.load('tiny_inst_1').model.info.horizon).toBe(5);
    expect(library.warnings).toEqual([]);
    let error: unknown;
    try {
      library.load('tiny_inst_bad');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ProtoplayError);
    expect((error as ProtoplayError).format()).toMatch(/^lazy\/tiny_inst_bad\.rddl:3:\d+: /);
    // Now left out, and said once.
    expect(library.instanceNames()).toEqual(['tiny_inst_1']);
    expect(library.has('tiny_inst_bad')).toBe(false);
    await library.checkAll();
    expect(library.warnings).toEqual([
      expect.stringMatching(/^lazy\/tiny_inst_bad\.rddl:3:\d+: .*\(file left out\)$/),
    ]);
  });

  it('reports a syntax error in a file named on the command line at its line and column', async () => {
    const loading = RddlLibrary.fromPaths(['plain/tiny_mdp.rddl', 'plain/broken.rddl'], {
      cwd: dir,
      mode: 'strict',
    });
    await expect(loading).rejects.toBeInstanceOf(ProtoplayError);
    await expect(loading).rejects.toMatchObject({
      location: { source: 'plain/broken.rddl', line: 2, column: 14 },
    });
  });

  it('reads the model from server/ and the task text from client/', async () => {
    const library = await RddlLibrary.fromServerDirectory(join(dir, 'split'), { cwd: dir, mode: 'lenient' });
    expect(library.instanceNames().sort()).toEqual(['tiny_inst_1', 'tiny_inst_2']);
    expect(library.load('tiny_inst_1').task).toBe(
      `// as the client sees it\n${DOMAIN}\n\n${instance('tiny_inst_1')}\n`,
    );
    // No client copy of the instance: rddlsim cannot read the task and sends null.
    expect(library.load('tiny_inst_2').task).toBeNull();
  });

  it('reads a file named twice once: by the same path, another spelling, its directory or a copy', async () => {
    const library = await RddlLibrary.fromPaths(
      [
        'single/tiny_all.rddl',
        'single/tiny_all.rddl',
        './single/../single/tiny_all.rddl',
        join(dir, 'single', 'tiny_all.rddl'),
        'single',
        'single/tiny_all_copy.rddl',
      ],
      { cwd: dir, mode: 'strict' },
    );
    expect(library.instanceNames()).toEqual(['tiny_all']);
    expect(library.instancesInFiles(['single/tiny_all_copy.rddl'])).toEqual(['tiny_all']);
    expect(library.instancesInFiles(['./single/../single/tiny_all.rddl'])).toEqual(['tiny_all']);
    const { model, task } = library.load('tiny_all');
    expect(model.info).toMatchObject({ domain: 'tiny_mdp', instance: 'tiny_all', horizon: 5 });
    // The task repeats the file, as rddlsim's server sends the domain's file and the instance's file.
    expect(task).toBe(`${DOMAIN}\n${instance('tiny_all')}\n\n${DOMAIN}\n${instance('tiny_all')}\n`);
  });

  it('still refuses two different files defining the same instance, locating both', async () => {
    await writeFile(
      join(dir, 'single', 'other.rddl'),
      instance('tiny_all').replace('horizon = 5', 'horizon = 6'),
    );
    const loading = RddlLibrary.fromPaths(['single/tiny_all.rddl', 'single/other.rddl'], {
      cwd: dir,
      mode: 'strict',
    });
    await expect(loading).rejects.toMatchObject({
      message:
        "instance 'tiny_all' is defined again here; it is already defined at single/tiny_all.rddl:13:10",
      location: { source: 'single/other.rddl', line: 1, column: 10 },
    });
  });

  it('names the instances there are when asked for one that is not', async () => {
    const library = await RddlLibrary.fromPaths(['plain/tiny_mdp.rddl', 'plain/tiny_inst_1.rddl'], {
      cwd: dir,
      mode: 'strict',
    });
    expect(library.instancesInFiles(['plain/tiny_inst_1.rddl'])).toEqual(['tiny_inst_1']);
    expect(() => library.load('tiny_inst_9')).toThrow(
      new CliError(ExitCode.usage, "no instance named 'tiny_inst_9'; the files define tiny_inst_1"),
    );
  });

  it('suggests the domain an instance misspells, from another file, located in the instance', async () => {
    await mkdir(join(dir, 'misspelt'), { recursive: true });
    await writeFile(join(dir, 'misspelt', 'tiny_mdp.rddl'), DOMAIN.replace('tiny_mdp', 'Tiny_MDP'));
    await writeFile(
      join(dir, 'misspelt', 'tiny_inst.rddl'),
      'instance tiny_inst {\n  domain = tiny_mdp;\n  horizon = 5;\n  discount = 1.0;\n}\n',
    );
    const library = await RddlLibrary.fromPaths(['misspelt'], { cwd: dir, mode: 'strict' });
    const error = (() => {
      try {
        library.load('tiny_inst');
      } catch (thrown) {
        return thrown as ProtoplayError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ProtoplayError);
    expect(error!.message).toBe(
      "instance 'tiny_inst' uses domain 'tiny_mdp', which is not in the loaded texts (did you mean Tiny_MDP?)",
    );
    expect(error!.location).toMatchObject({ line: 2, column: 12 });
    expect(error!.location?.source).toMatch(/tiny_inst\.rddl$/);
  });

  it('`serve rddlsim` listens and warns about a broken file found after listening', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', 'rddlsim', '--rddl-dir', 'plain', '--port', '0'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: string[] = [];
    let stderr = '';
    const warned = new Promise<void>((done, failed) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (/listening on 127\.0\.0\.1:\d+ \(1 instances/.test(chunk.toString())) events.push('listening');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('(file left out)\n')) {
          events.push('warned');
          done();
        }
      });
      child.once('close', (code) => failed(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    try {
      await warned;
    } finally {
      child.kill();
    }
    // Two pipes: the order the lines arrive in is not the order they were written in, so only both are checked.
    expect(events.sort()).toEqual(['listening', 'warned']);
    expect(stderr).toMatch(/^warning: plain\/broken\.rddl:2:14: .* \(file left out\)\n$/);
  });
});
