/**
 * The policy thread loads the definition of the protocol it runs and no other: its module reaches no
 * protocol's folder and not the registry by static imports (each definition is a chunk of its own in the
 * package's bundle, imported when the thread is told its protocol), and the definition it loads by id is
 * the registry's own.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBuiltInProtocol } from '../../../src/core/protocols/definition-loader';
import { PROTOCOLS } from '../../../src/core/protocols/registry';
import { rawText } from '../../../scripts/raw-text-plugin';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the policy thread loads one protocol', () => {
  it("reaches no protocol's definition by static imports; each one is a chunk loaded on demand", async () => {
    // Bundled as scripts/build-package.ts bundles the thread (splitting into chunks).
    const result = await build({
      entryPoints: { 'policy-thread-entry': `${ROOT}cli/policy/policy-thread.ts` },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      plugins: [rawText],
      outdir: `${ROOT}lib-test-unused`,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((path) => path.endsWith('/policy-thread-entry.js'))!;
    /** Every source file of the outputs reached from `start` by the given kinds of import. */
    const reached = (start: string, kinds: readonly string[]): Set<string> => {
      const files = new Set<string>();
      const seen = new Set<string>();
      const visit = (output: string) => {
        if (seen.has(output)) return;
        seen.add(output);
        for (const input of Object.keys(outputs[output]!.inputs)) files.add(input);
        for (const next of outputs[output]!.imports)
          if (kinds.includes(next.kind) && !next.external) visit(next.path);
      };
      visit(start);
      return files;
    };
    const atStart = [...reached(entry, ['import-statement'])];
    expect(atStart.filter((file) => /src\/core\/protocols\/[^/]+\//.test(file))).toEqual([]);
    expect(atStart.filter((file) => file.endsWith('src/core/protocols/registry.ts'))).toEqual([]);
    expect(atStart).toContain('src/core/protocols/definition-loader.ts');
    // Each built-in definition is reached through a dynamic import that brings it and no other one (an
    // extra protocol's module, imported only for one, brings the registry and so every definition).
    const staticOutputs = new Set<string>();
    const collect = (output: string) => {
      if (staticOutputs.has(output)) return;
      staticOutputs.add(output);
      for (const next of outputs[output]!.imports)
        if (next.kind === 'import-statement' && !next.external) collect(next.path);
    };
    collect(entry);
    const loadedOnDemand = [...staticOutputs].flatMap((output) =>
      outputs[output]!.imports.filter((next) => next.kind === 'dynamic-import' && !next.external).map(
        (next) => [...reached(next.path, ['import-statement'])],
      ),
    );
    const definitions = (files: readonly string[]) =>
      files.filter((file) => /^src\/core\/protocols\/[^/]+\/protocol\.ts$/.test(file));
    for (const protocol of PROTOCOLS) {
      const definition = `src/core/protocols/${protocol.id}/protocol.ts`;
      expect(
        loadedOnDemand.some((files) => definitions(files).join() === definition),
        protocol.id,
      ).toBe(true);
    }
  });

  it.each(PROTOCOLS.map((protocol) => [protocol.id, protocol] as const))(
    '%s: the definition loaded by its id is the registry’s',
    async (id, protocol) => {
      expect(await loadBuiltInProtocol(id)).toBe(protocol);
    },
  );

  it('says so for an id that names no built-in protocol', async () => {
    await expect(loadBuiltInProtocol('no-such-protocol')).rejects.toThrow(
      /no protocol 'no-such-protocol' could be loaded: /,
    );
    await expect(loadBuiltInProtocol('../registry')).rejects.toThrow("no protocol '../registry' is built in");
  });
});
