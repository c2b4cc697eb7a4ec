/** An esbuild plugin for Vite's `?raw` imports (a file's text), which a bundle inlines the same way. */
import type { Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const rawText: Plugin = {
  name: 'raw-text',
  setup(builder) {
    builder.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'raw-text' }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};
