import { describe, expect, it } from 'vitest';
import { decodeSharedConfig, encodeSharedConfig } from '../../../../src/state/share';
import { decodeRddlShare, encodeRddlShare } from '../../../../src/state/protocols/rddlsim/rddl-share';

const files = [
  {
    name: 'my_domain.rddl',
    text: 'domain my_domain {\n  // a learner’s domain, with non-ASCII: é ü ✓\n}\n'.repeat(30),
  },
  { name: 'my_instance.rddl', text: 'instance i { domain = my_domain; horizon = 10; discount = 1.0; }\n' },
];

describe('the RDDL in shared links', () => {
  it('round-trips the texts, the instance and the quirks switch', () => {
    const fragment = encodeRddlShare({
      environment: 'rddl-files',
      draft: { files, instance: 'i', original: files },
      quirks: true,
    });
    expect(decodeRddlShare(`#${fragment}`)).toEqual({
      environment: 'rddl-files',
      draft: { files, instance: 'i', original: files },
      quirks: true,
    });
  });

  it('carries the texts compressed, far shorter than the texts themselves', () => {
    const fragment = encodeRddlShare({ environment: 'rddl-files', draft: { files, original: files } });
    const text = files.map((f) => f.text).join('');
    expect(fragment.length).toBeLessThan(text.length / 4);
    expect(fragment).toMatch(/^rddl=[A-Za-z0-9_-]+$/);
  });

  it('lives beside the rest of the shared configuration, which ignores it', () => {
    const link = `#${encodeSharedConfig({ protocol: 'rddlsim', seed: 3, code: 'x' })}&${encodeRddlShare({ quirks: false })}`;
    expect(decodeSharedConfig(link)).toEqual({ protocol: 'rddlsim', seed: 3, code: 'x' });
    expect(decodeRddlShare(link)).toEqual({ quirks: false });
  });

  it('drops a damaged RDDL parameter and keeps the rest', () => {
    const good = encodeRddlShare({ environment: 'rddl-files', draft: { files, original: files } });
    const damaged = `${good.slice(0, good.length - 40)}&quirks=1`;
    expect(decodeRddlShare(damaged)).toEqual({ quirks: true });
    expect(decodeRddlShare('#seed=4')).toBeUndefined();
  });
});
