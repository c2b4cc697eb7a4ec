/**
 * A policy file with a syntax error is reported as such, located, without starting any runtime: however
 * slow a runtime would be to start (a busy machine), the user never sees "exceeded ... while loading" for
 * a typo. The same holds for the MASSim team policies.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../cli/command-line/exit-codes';
import { loadPolicyFile } from '../../../cli/policy/policy-file';
import { prepareTeamPolicy } from '../../../cli/protocols/massim/team-policy';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import { PROTOCOLS } from '../../../src/core/protocols/registry';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-policy-file-'));
  await writeFile(join(dir, 'broken.ts'), 'export function act() {\n  const x = ;\n  return null;\n}\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A runtime that never answers: what a machine too busy to start one looks like from here. */
function neverStarts(): PolicyEndpoint {
  return {
    load: () => new Promise(() => undefined),
    call: () => new Promise(() => undefined),
    terminate: () => undefined,
  };
}

async function failure(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

describe('policy syntax errors', () => {
  it('are reported located, before a runtime is started', async () => {
    let spawned = 0;
    const error = await failure(
      loadPolicyFile('broken.ts', {
        cwd: dir,
        seed: 0,
        protocol: PROTOCOLS[0]!,
        budgetMs: 1000,
        spawn: () => {
          spawned++;
          return neverStarts();
        },
      }),
    );
    expect(spawned).toBe(0);
    expect(error.exitCode).toBe(ExitCode.policy);
    expect(error.located).toBe(true);
    expect(error.message).toMatch(/^broken\.ts:2:13: Syntax error: /);
  });

  it('are reported the same way for a MASSim team policy', async () => {
    const error = await failure(
      prepareTeamPolicy('broken.ts', 'policy', {
        cwd: dir,
        seed: 0,
        budgetMs: 1000,
        team: 'A',
        onFault: () => undefined,
        spawn: neverStarts,
      }),
    );
    expect(error.exitCode).toBe(ExitCode.policy);
    expect(error.message).toMatch(/^broken\.ts:2:13: Syntax error: /);
  });
});
