import { afterEach, describe, expect, it } from 'vitest';
import {
  scopeFromWorkerName,
  scopedKey,
  storageScope,
  useStorageScope,
  workerNameWithScope,
} from '../../src/storage/storage-scope';

describe('storage scopes', () => {
  afterEach(() => useStorageScope(undefined));

  it('leaves the page’s own keys unchanged, and gives each exercise its own', () => {
    expect(scopedKey('protoplay:workspace:v1')).toBe('protoplay:workspace:v1');
    useStorageScope('exercise:one');
    expect(storageScope()).toBe('exercise:one');
    const one = scopedKey('protoplay:workspace:v1');
    useStorageScope('exercise:two');
    expect(scopedKey('protoplay:workspace:v1')).not.toBe(one);
    expect(one).toContain('protoplay:workspace:v1');
  });

  it('hands the scope to a worker through its name', () => {
    expect(scopeFromWorkerName(workerNameWithScope('session'))).toBeUndefined();
    useStorageScope('link:0badf00d');
    const name = workerNameWithScope('session');
    expect(name.startsWith('session')).toBe(true);
    expect(scopeFromWorkerName(name)).toBe('link:0badf00d');
  });
});
