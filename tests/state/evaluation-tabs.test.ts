/**
 * Tabs as Compare baselines, over a real BroadcastChannel: a tab hears another tab's current code for its
 * protocol, gets the newest code when it asks again, and forgets a tab that said goodbye or has no code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EvaluationTabs, type TabCode } from '../../src/state/evaluation-tabs.svelte';

const source = (code: string) => ({
  code,
  language: 'ts' as const,
  level: 'policy' as const,
  fileName: 'p.ts',
});

const open: EvaluationTabs[] = [];
afterEach(() => {
  for (const tab of open.splice(0)) tab.close();
});

function tab(current?: () => TabCode | undefined): EvaluationTabs {
  const made = new EvaluationTabs();
  open.push(made);
  if (current) made.provide(current);
  else made.open();
  return made;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

describe('EvaluationTabs', () => {
  it("hears another tab's code for its protocol, and the newest when asked again", async () => {
    let code = 'export const v = 1;';
    const other = tab(() => ({ protocol: 'rddlsim', source: source(code) }));
    const here = tab();
    await until(() => here.peersOf('rddlsim').length === 1);
    expect(here.peersOf('massim')).toEqual([]);
    const peer = here.peersOf('rddlsim')[0]!;
    expect(peer.id).toBe(other.id);
    expect(peer.source.code).toBe('export const v = 1;');
    expect(peer.label).toMatch(/^the tab opened at /);
    code = 'export const v = 2;';
    const latest = await here.latest(other.id);
    expect(latest?.source.code).toBe('export const v = 2;');
    // A tab never lists itself.
    expect(other.peersOf('rddlsim')).toEqual([]);
  });

  it('forgets a tab that closed, and one with nothing to compare', async () => {
    let level: 'policy' | undefined = 'policy';
    const other = tab(() => (level ? { protocol: 'gama', source: source('x') } : undefined));
    const here = tab();
    await until(() => here.peersOf('gama').length === 1);
    level = undefined;
    expect(await here.latest(other.id)).toBeUndefined();
    const third = tab(() => ({ protocol: 'gama', source: source('y') }));
    await until(() => here.peersOf('gama').length === 1 && here.peersOf('gama')[0]!.id === third.id);
    third.close();
    await until(() => here.peersOf('gama').length === 0);
  });
});
