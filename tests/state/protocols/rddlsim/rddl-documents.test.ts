import '@vitest/web-worker';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_DOMAINS, exampleSources } from '../../../../src/core/envs/rddl';
import {
  RDDL_FILES_ENVIRONMENT,
  RddlDocuments,
  sanitizeStoredRddl,
} from '../../../../src/state/protocols/rddlsim/rddl-documents.svelte';
import { RddlLanguageClient } from '../../../../src/state/protocols/rddlsim/rddl-language-client';
import { RELAY_ACC_RDDL } from '../../../core/envs/rddl/fixtures';

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const ippcFile = (name: string) => ({ name, text: readFileSync(resolve(ippc2011, name), 'utf8') });

const [network, cellLife] = EXAMPLE_DOMAINS;
const networkSources = exampleSources(network!);

/** Names of the blocks of a kind in a text, read independently of the RDDL parser. */
function blockNames(text: string, kind: 'instance' | 'domain'): string[] {
  return [...text.matchAll(new RegExp(`^\\s*${kind}\\s+([A-Za-z0-9_-]+)\\s*\\{`, 'gm'))].map((m) => m[1]!);
}

function documents(): RddlDocuments {
  // Deadlines no answer can miss on a busy machine: these tests are about what the documents do.
  const language = new RddlLanguageClient(
    () =>
      new Worker(new URL('../../../../workers/rddl-language.worker.ts', import.meta.url), {
        type: 'module',
      }),
    { check: 60_000, interactive: 60_000 },
  );
  return new RddlDocuments({ language, debounceMs: 5 });
}

/** Waits for the pending check; returns why a run would be refused. */
const checked = (docs: RddlDocuments) => docs.runRefusal();

describe('the RDDL documents of the playground', () => {
  it('start on the default example, checked, with its instance and policy types', async () => {
    const docs = documents();
    expect(docs.files).toEqual(networkSources);
    expect(await checked(docs)).toBeUndefined();
    expect(docs.diagnostics).toEqual([]);
    expect(docs.instances).toEqual(blockNames(network!.instance, 'instance'));
    expect(docs.instance).toBe(docs.instances[0]);
    expect(docs.policyTypes).toContain('"reboot"');
    expect(docs.edited).toBe(false);
  });

  it('refuse to run while an edit has a syntax error, saying where; run again once it is fixed', async () => {
    const docs = documents();
    await checked(docs);
    const typesBefore = docs.policyTypes;
    const [domain] = networkSources;
    const broken = domain!.text.replace('reward =', 'reward');
    const line = broken.split('\n').findIndex((l) => /^\s*reward \[/.test(l)) + 1;
    docs.edit(domain!.name, broken);
    expect(docs.edited).toBe(true);
    const refusal = await checked(docs);
    expect(refusal).toMatch(/^Run refused/);
    expect(refusal).toContain(`${domain!.name}:${line}:`);
    expect(docs.errors[0]!.location).toMatchObject({ source: domain!.name, line });
    // The last good types stay while the text is broken, so the policy editor keeps its completions.
    expect(docs.policyTypes).toBe(typesBefore);
    docs.edit(domain!.name, domain!.text);
    expect(await checked(docs)).toBeUndefined();
    expect(docs.edited).toBe(false);
  });

  it('take the newest text when edits come faster than checks', async () => {
    const docs = documents();
    const [domain] = networkSources;
    docs.edit(domain!.name, domain!.text.replace('reward =', 'reward'));
    await new Promise((r) => setTimeout(r, 10)); // let the first check start
    docs.edit(
      domain!.name,
      domain!.text.replace(
        'REBOOT-COST  : { non-fluent, real, default = 0.5 }',
        'REBOOT-COST  : { non-fluent, real, default = 0.75 }',
      ),
    );
    expect(await checked(docs)).toBeUndefined();
    expect(docs.diagnostics).toEqual([]);
  });

  it('regenerate the policy types from the edited domain', async () => {
    const docs = documents();
    await checked(docs);
    const [domain] = networkSources;
    docs.edit(domain!.name, domain!.text.replaceAll('reboot', 'restart'));
    expect(await checked(docs)).toBeUndefined();
    expect(docs.policyTypes).toContain('"restart"');
    expect(docs.policyTypes).not.toContain('"reboot"');
  });

  it('keep each domain’s edits when switching, and reset to the built-in texts', async () => {
    const docs = documents();
    const [domain] = networkSources;
    const edited = domain!.text.replace('default = 0.03', 'default = 0.05');
    docs.edit(domain!.name, edited);
    docs.choose(cellLife!.id);
    expect(docs.files).toEqual(exampleSources(cellLife!));
    expect(docs.edited).toBe(false);
    expect(docs.editedEnvironments).toEqual([network!.id]);
    docs.choose(network!.id);
    expect(docs.files[0]!.text).toBe(edited);
    expect(docs.edited).toBe(true);
    const replacedBefore = docs.replaced;
    docs.reset();
    expect(docs.files).toEqual(networkSources);
    expect(docs.replaced).toBeGreaterThan(replacedBefore);
    expect(docs.editedEnvironments).toEqual([]);
    expect(await checked(docs)).toBeUndefined();
  });

  it('play IPPC files opened from disk, with a choice among several instances', async () => {
    const docs = documents();
    const files = ['sysadmin_mdp.rddl', 'sysadmin_inst_mdp__1.rddl', 'sysadmin_inst_mdp__10.rddl'].map(
      ippcFile,
    );
    docs.open(files);
    expect(docs.environment).toBe(RDDL_FILES_ENVIRONMENT);
    expect(docs.openedNames).toEqual(files.map((f) => f.name));
    expect(await checked(docs)).toBeUndefined();
    const instances = files.flatMap((f) => blockNames(f.text, 'instance'));
    expect(docs.instances).toEqual(instances);
    expect(docs.instance).toBe(instances[0]);
    expect(docs.policyTypes).not.toContain('"c50"');
    docs.chooseInstance(instances[1]!);
    expect(await checked(docs)).toBeUndefined();
    // The larger instance's objects reach the policy types.
    expect(docs.policyTypes).toContain('"c50"');
    expect(docs.sessionSource()).toEqual({ files, instance: instances[1], rddlsimQuirks: false });
  });

  it('refuse to run a domain without an instance', async () => {
    const docs = documents();
    docs.open([ippcFile('sysadmin_mdp.rddl')]);
    expect(await checked(docs)).toMatch(/defines no instance/);
  });

  it("check in the semantics the quirks switch chooses: rddlsim's turns what it runs into warnings", async () => {
    const docs = documents();
    docs.open([{ name: 'relay_acc.rddl', text: RELAY_ACC_RDDL }]);
    const refusal = await checked(docs);
    expect(refusal).toMatch(/^Run refused: the RDDL has 5 errors\. relay_acc\.rddl:8:/);
    expect(docs.policyTypes).toBeUndefined();
    docs.quirks = true;
    expect(await checked(docs)).toBeUndefined();
    expect(docs.errors).toEqual([]);
    expect(docs.diagnostics.map((d) => [d.severity, d.location.line])).toEqual([
      ['warning', 8],
      ['warning', 17],
      ['warning', 19],
      ['warning', 31],
    ]);
    // The policy types are generated as the session will load the texts.
    expect(docs.policyTypes).toContain('"go"');
    docs.quirks = false;
    expect(await checked(docs)).toMatch(/^Run refused: the RDDL has 5 errors/);
  });

  it('survive a reload: stored state restores the drafts, the domain shown and the quirks', async () => {
    const docs = documents();
    docs.open([ippcFile('sysadmin_mdp.rddl'), ippcFile('sysadmin_inst_mdp__1.rddl')]);
    docs.edit('sysadmin_mdp.rddl', docs.files[0]!.text.replace('default = 0.75', 'default = 0.5'));
    expect(docs.editedEnvironments).toEqual([RDDL_FILES_ENVIRONMENT]);
    docs.quirks = true;
    // Two emulated workers that load the worker module at the same time can share one module instance (the
    // second then never answers): the first document's worker is up before the second one starts.
    await checked(docs);
    const stored = sanitizeStoredRddl(structuredClone(docs.toStored()))!;
    const again = documents();
    again.restore(stored);
    expect(again.environment).toBe(RDDL_FILES_ENVIRONMENT);
    expect(again.files).toEqual(docs.files);
    expect(again.quirks).toBe(true);
    expect(again.sessionSource().rddlsimQuirks).toBe(true);
    expect(await checked(again)).toBeUndefined();
    // Checked, not given up on: a check that failed also leaves no reason to refuse a run.
    expect(again.checkProblem).toBeUndefined();
    expect(again.instances).toEqual(
      blockNames(stored.drafts[RDDL_FILES_ENVIRONMENT]!.files[1]!.text, 'instance'),
    );
  });
});

describe('stored RDDL state read back', () => {
  it('drops unknown environments and malformed drafts, and falls back to the default domain', () => {
    const clean = sanitizeStoredRddl({
      environment: 'no-such-domain',
      quirks: 'yes',
      drafts: {
        'no-such-domain': { files: [{ name: 'a.rddl', text: '' }] },
        [cellLife!.id]: { files: [{ name: 7 }] },
        [network!.id]: { files: networkSources, original: networkSources },
      },
    });
    expect(clean).toEqual({
      environment: network!.id,
      quirks: false,
      drafts: { [network!.id]: { files: networkSources, original: networkSources } },
    });
    expect(sanitizeStoredRddl('garbage')).toBeUndefined();
  });
});
