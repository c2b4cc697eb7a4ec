import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Every protocol has a folder in src/core/protocols; outside its own folders, no code names it.
const protocolIds = readdirSync(new URL('./src/core/protocols/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const protocolFolders = [
  'src/core/protocols',
  'src/ui/protocols',
  'src/state/protocols',
  'cli/protocols',
].map((folder) => `${folder}/*/**`);

// What each layer may not import, as `no-restricted-imports` patterns (a later block replaces an earlier
// one's patterns for the files both match, so the protocol folders' blocks below repeat their layer's).
const corePatterns = [
  {
    group: ['**/state/**', '**/ui/**', '**/app/**', '**/workers/**'],
    message: 'src/core is below the page: it imports nothing of it.',
  },
  {
    group: ['svelte', 'svelte/*', 'node:*'],
    message: 'src/core runs in workers, Node and tests alike: no Svelte, no Node-only modules.',
  },
];
const statePatterns = [{ group: ['**/ui/**', '**/app/**'], message: 'State is below the views.' }];
const layerPatterns = {
  'src/core/protocols': corePatterns,
  'src/state/protocols': statePatterns,
  'src/ui/protocols': [],
  'cli/protocols': [],
};
// A protocol's folders import no other protocol's: what two protocols share lives in shared code.
const protocolIsolation = protocolIds.flatMap((id) =>
  Object.entries(layerPatterns).map(([folder, patterns]) => ({
    files: [`${folder}/${id}/**/*.{ts,svelte}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...patterns,
            {
              group: protocolIds
                .filter((other) => other !== id)
                .flatMap((other) => [`**/${other}`, `**/${other}/**`]),
              message: `A protocol's folder imports no other protocol's: move what they share to shared code.`,
            },
          ],
        },
      ],
    },
  })),
);

export default ts.config(
  {
    ignores: [
      'dist/',
      'dist-extra-protocols/',
      'lib/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/out/',
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layering (docs/architecture.md): dependencies point downward only, and shared code names no protocol.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: corePatterns,
        },
      ],
    },
  },
  {
    files: ['src/core/transcript/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/protocols/*/**'],
              message:
                'The transcript layer names no protocol: take a Protocol (contract.ts) as an argument.',
            },
            {
              group: ['**/protocols/registry'],
              message: 'The transcript layer takes the protocols it needs as arguments.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/state/**', '**/src/ui/**', '**/src/app/**'],
              message: 'Workers are below the page state: they import core only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/state/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: statePatterns }],
    },
  },
  {
    files: ['src/**/*.{ts,svelte}', 'workers/**/*.ts', 'cli/**/*.ts'],
    ignores: [...protocolFolders, 'src/core/envs/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `Literal[value=/^(${protocolIds.join('|')})$/]`,
          message:
            'Shared code names no protocol: take what you need from its Protocol definition or page adapter.',
        },
      ],
    },
  },
  ...protocolIsolation,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser } },
  },
);
