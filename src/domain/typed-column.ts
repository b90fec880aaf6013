/**
 * An append-only typed column: values pushed one by one live off the JS heap in a typed array,
 * so building a million-row column adds no garbage-collected arrays to mark or copy
 * (docs/architecture.md#the-snapshot-and-its-lifecycle).
 *
 * A column that outgrows LARGE bytes moves once onto a growable SharedArrayBuffer and grows in
 * place from then on: the memory is reserved, not written, so growing copies nothing, `done()`
 * is a view rather than a copy, and the column is already on the shared memory every thread
 * reads the snapshot from (share-columns.ts copies it no more). At ten million games the
 * doublings, the trimming copy and the copy onto shared memory wrote every large column about
 * four times, on fresh pages each time.
 */

type TypedArray = Int8Array | Uint8Array | Int32Array | Float64Array;

interface TypedArrayConstructor<T extends TypedArray> {
  new (length: number): T;
  new (buffer: SharedArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** Past this many bytes a column grows in place on shared memory. */
const LARGE = 1 << 20;

/**
 * The address space a large column reserves: V8's largest growable buffer. A column larger still
 * (half a billion doubles) goes back to growing by copies.
 */
const RESERVE = 2 ** 32;

/** A growable typed array; `data` may hold spare room past `length`. */
export class TypedColumn<T extends TypedArray> {
  length = 0;
  data: T;
  private shared: SharedArrayBuffer | null = null;

  private readonly Kind: TypedArrayConstructor<T>;
  constructor(Kind: TypedArrayConstructor<T>, capacity = 0) {
    this.Kind = Kind;
    this.data = new Kind(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  /** The pushed values, exactly: a copy while the column is small, a view once it is large. */
  done(): T {
    if (this.shared !== null) return new this.Kind(this.shared, 0, this.length);
    return this.data.slice(0, this.length) as T;
  }

  private grow(): void {
    const length = Math.max(1024, this.data.length * 2);
    const bytes = length * this.Kind.BYTES_PER_ELEMENT;
    if (bytes <= LARGE || bytes > RESERVE) {
      const grown = new this.Kind(length);
      grown.set(this.data);
      this.data = grown;
      this.shared = null;
      return;
    }
    // The first time past LARGE the values move onto shared memory; after that it only grows.
    const moving = this.shared === null;
    this.shared ??= new SharedArrayBuffer(0, { maxByteLength: RESERVE });
    this.shared.grow(bytes);
    const grown = new this.Kind(this.shared, 0, length);
    if (moving) grown.set(this.data);
    this.data = grown;
  }
}
