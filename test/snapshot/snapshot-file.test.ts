/**
 * The snapshot file (docs/architecture.md#the-snapshot-file) gives back exactly what was written
 * under the same key, and is never used under another key or when it is short or damaged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TypedColumn } from '../../src/domain/typed-column.ts';
import { readSnapshotFile, writeSnapshotFile } from '../../src/snapshot/snapshot-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-snapshot-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Typed arrays on shared and own memory, two views of one buffer, Maps, Sets, NaN, a cycle. */
function sample() {
  const shared = new SharedArrayBuffer(64);
  const ints = new Int32Array(shared, 0, 8);
  for (let i = 0; i < ints.length; i++) ints[i] = i * 3 - 7;
  const bytes = new Uint8Array(shared, 32, 16).fill(200);
  const names = ['Ada', 'Bo', null, 'Ümit'];
  const index = new Map<string, unknown>([
    ['a', new Float64Array([1.5, NaN, -0, Infinity])],
    ['b', { nested: new Int8Array([-1, 0, 1]) }],
  ]);
  const value: Record<string, unknown> = {
    ints,
    bytes,
    names,
    again: names,
    index,
    tags: new Set(['x', 'y']),
    when: new Date('2026-11-25T00:00:00Z'),
    big: new BigInt64Array([1n, -2n]),
  };
  value.self = value;
  return value;
}

describe('snapshot file', () => {
  it('reads back what was written: values, memory kinds, shared views and references', () => {
    const path = join(dir, 'round-trip.snapshot');
    const written = sample();
    writeSnapshotFile(path, 'key-1', written);
    const read = readSnapshotFile(path, 'key-1');
    assert.ok('value' in read, 'unused' in read ? read.unused : '');
    const value = read.value as ReturnType<typeof sample>;
    assert.deepEqual(value, written);
    const ints = value.ints as Int32Array;
    assert.ok(ints.buffer instanceof SharedArrayBuffer);
    // The two views still share one buffer, as they did when written.
    assert.equal(ints.buffer, (value.bytes as Uint8Array).buffer);
    const floats = (value.index as Map<string, Float64Array>).get('a')!;
    assert.ok(
      floats.buffer instanceof ArrayBuffer && !(floats.buffer instanceof SharedArrayBuffer),
    );
    assert.ok(Object.is(floats[2], -0) && Number.isNaN(floats[1]));
    assert.equal(value.again, value.names);
    assert.equal(value.self, value);
  });

  it('writes the bytes a growable column was written, not the room it reserved', () => {
    const path = join(dir, 'growable.snapshot');
    const column = new TypedColumn(Float64Array);
    for (let i = 0; i < 140_000; i++) column.push(i / 4); // 1.1 MB: grown once to 2 MiB of room
    const written = { values: column.done() };
    assert.ok(written.values.buffer.byteLength >= 2 ** 21);
    const bytes = writeSnapshotFile(path, 'key-g', written);
    assert.ok(bytes < 140_000 * 8 + 4096, `${bytes} bytes written`);
    const read = readSnapshotFile(path, 'key-g');
    assert.ok('value' in read, 'unused' in read ? read.unused : '');
    const values = (read.value as typeof written).values;
    assert.deepEqual(values, written.values);
    assert.equal(values.buffer.byteLength, 140_000 * 8);
  });

  it('is not used under another key, and says so', () => {
    const path = join(dir, 'other-key.snapshot');
    writeSnapshotFile(path, 'data version 7', sample());
    const read = readSnapshotFile(path, 'data version 8');
    assert.deepEqual(read, { unused: 'it was made from other data or by other code' });
  });

  it('is not used when a byte of it has changed', () => {
    const path = join(dir, 'damaged.snapshot');
    writeSnapshotFile(path, 'k', sample());
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path, bytes);
    assert.deepEqual(readSnapshotFile(path, 'k'), {
      unused: 'its checksum does not match (the file is damaged)',
    });
  });

  it('is not used when it is cut short or is not a snapshot file at all', () => {
    const path = join(dir, 'short.snapshot');
    writeSnapshotFile(path, 'k', sample());
    truncateSync(path, statSync(path).size - 9);
    assert.deepEqual(readSnapshotFile(path, 'k'), {
      unused: 'it cannot be read (the file ends early)',
    });
    writeFileSync(path, 'hello, world');
    assert.deepEqual(readSnapshotFile(path, 'k'), { unused: 'not a snapshot file' });
    assert.deepEqual(readSnapshotFile(join(dir, 'missing.snapshot'), 'k'), {
      unused: 'there is none',
      absent: true,
    });
  });

  it('leaves no file behind when it cannot be written whole', () => {
    const path = join(dir, 'no-such-folder', 'x.snapshot');
    assert.throws(() => writeSnapshotFile(path, 'k', sample()), /ENOENT/);
    assert.throws(() => writeSnapshotFile(join(dir, 'w.snapshot'), 'k', { f: () => 1 }));
    assert.throws(() => statSync(join(dir, 'w.snapshot')), /ENOENT/);
  });
});
