import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column, readVarint, VarintWriter } from '../../../../src/core/transcript/store/columns';

describe('store columns', () => {
  it('read back every integer written as a varint, up to 2^31 - 1', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxLength: 3000 }), (values) => {
        const writer = new VarintWriter(4);
        for (const value of values) writer.write(value);
        const bytes = writer.copy();
        const cursor = { position: 0 };
        expect(values.map(() => readVarint(bytes, cursor))).toEqual(values);
        expect(cursor.position).toBe(bytes.length);
      }),
    );
  });

  it('grow typed columns as values are pushed', () => {
    const column = new Column(Float64Array, 2);
    for (let i = 0; i < 100; i++) column.push(i / 4);
    expect(column.length).toBe(100);
    expect(column.at(99)).toBe(24.75);
    expect(column.view().length).toBe(100);
    expect(column.byteLength).toBeGreaterThanOrEqual(800);
  });
});
