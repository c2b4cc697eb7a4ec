/**
 * The generic command line: a protocol registers its commands and the dispatcher parses, helps and maps
 * errors to exit codes without knowing anything about the protocol. A made-up protocol shows that; the
 * real ones must each have complete help.
 */
import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../src/core/errors';
import type { CommandSpec, OptionValues, ProtocolCommands } from '../../../cli/command-line/command-spec';
import { runCommandLine } from '../../../cli/command-line/dispatch';
import { CliError, ExitCode } from '../../../cli/command-line/exit-codes';
import type { CliOutput } from '../../../cli/command-line/io';
import { OptionReader } from '../../../cli/command-line/option-values';
import { PROTOCOL_COMMANDS } from '../../../cli/protocols';

class Captured implements CliOutput {
  text = '';
  write(text: string) {
    this.text += text;
    return true;
  }
}

/** A protocol with only `run`, whose handler does what the test asks. */
function toyProtocol(handler: (values: OptionValues) => Promise<number>): ProtocolCommands {
  const run: CommandSpec = {
    summary: 'play the toy game',
    options: [
      {
        name: 'level',
        type: 'string',
        multiple: true,
        valueName: 'FILE',
        description: 'a level (repeatable)',
      },
      { name: 'rounds', type: 'string', valueName: 'N', description: 'rounds (default 3)' },
      { name: 'fast', type: 'boolean', description: 'go fast' },
    ],
    examples: ['run toy --level a.txt --rounds 2'],
    handler: (values) => handler(values),
  };
  return { id: 'toy', title: 'A toy protocol', commands: { run } };
}

async function dispatch(args: string[], protocols: ProtocolCommands[]) {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCommandLine(args, protocols, { io: { stdout, stderr, cwd: '/' } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('the command dispatcher', () => {
  it('hands a protocol handler its options as the spec declares them', async () => {
    let seen: OptionValues | undefined;
    const toy = toyProtocol(async (values) => {
      seen = values;
      return new OptionReader(values).integer('rounds', 3);
    });
    const result = await dispatch(
      ['run', 'toy', '--level', 'a', '--level', 'b', '--rounds', '7', '--fast'],
      [toy],
    );
    expect(result).toEqual({ code: 7, stdout: '', stderr: '' });
    expect(seen).toMatchObject({ level: ['a', 'b'], rounds: '7', fast: true });
  });

  it('prints help built from the spec', async () => {
    const toy = toyProtocol(async () => 0);
    const help = await dispatch(['run', 'toy', '--help'], [toy]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: protoplay run toy [options]');
    expect(help.stdout).toMatch(/--level FILE \.\.\. +a level \(repeatable\)/);
    expect(help.stdout).toContain('protoplay run toy --level a.txt --rounds 2');
    expect(help.stdout).toContain('Exit codes:');
    const general = await dispatch(['--help'], [toy]);
    expect(general.stdout).toMatch(/toy +A toy protocol \(run\)/);
    const bare = await dispatch([], [toy]);
    expect(bare.code).toBe(ExitCode.usage);
  });

  it.each([
    [['walk', 'toy'], /^error: unknown command 'walk'/],
    [['run'], /^error: which protocol\? .*toy/],
    [['run', 'chess'], /^error: unknown protocol 'chess'/],
    [['serve', 'toy'], /^error: protoplay serve does not support toy yet/],
    [['run', 'toy', '--speed', '3'], /^error: Unknown option '--speed' \(see protoplay run toy --help\)$/],
    [
      ['run', 'toy', '--rounds'],
      /^error: Option '--rounds <value>' argument missing \(see protoplay run toy --help\)$/,
    ],
    [['run', 'toy', '--rounds', 'x'], /^error: --rounds must be a whole number, got 'x'$/],
  ])('rejects %j as a usage error (exit 2) in one line', async (args, line) => {
    const toy = toyProtocol(async (values) => new OptionReader(values).integer('rounds', 3));
    const result = await dispatch(args, [toy]);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
  });

  it('prints errors as one line with their exit code, located ones as file:line:column', async () => {
    const failWith = (error: unknown) => toyProtocol(async () => Promise.reject(error));
    const policy = await dispatch(
      ['run', 'toy'],
      [failWith(new CliError(ExitCode.policy, 'p.ts:3:9: boom', { located: true }))],
    );
    expect(policy).toEqual({ code: 3, stdout: '', stderr: 'p.ts:3:9: boom\n' });
    const rddl = await dispatch(
      ['run', 'toy'],
      [
        failWith(
          new ProtoplayError('rddl-syntax', "unknown type 'foo'", { source: 'd.rddl', line: 12, column: 5 }),
        ),
      ],
    );
    expect(rddl).toEqual({ code: 1, stdout: '', stderr: "d.rddl:12:5: unknown type 'foo'\n" });
    const bug = await dispatch(['run', 'toy'], [failWith(new TypeError('x is undefined'))]);
    expect(bug).toEqual({ code: 1, stdout: '', stderr: 'error: x is undefined\n' });
    const debugged = await dispatch(['run', 'toy', '--debug'], [failWith(new TypeError('x is undefined'))]);
    expect(debugged.stderr.split('\n')[1]).toMatch(/^TypeError: x is undefined/);
    expect(debugged.stderr).toMatch(/\n\s+at /);
  });
});

describe('the registered protocols', () => {
  for (const protocol of PROTOCOL_COMMANDS) {
    for (const [command, spec] of Object.entries(protocol.commands)) {
      it(`document ${command} ${protocol.id} with options, examples and exit codes`, async () => {
        const help = await dispatch([command, protocol.id, '-h'], [...PROTOCOL_COMMANDS]);
        expect(help.code).toBe(0);
        for (const option of spec.options) expect(help.stdout).toContain(`--${option.name}`);
        expect(spec.examples.length).toBeGreaterThan(0);
        for (const example of spec.examples) {
          expect(example.startsWith(`${command} ${protocol.id} `)).toBe(true);
          expect(help.stdout).toContain(`protoplay ${example}`);
        }
        expect(help.stdout).toContain('Exit codes:');
      });
    }
  }
});
