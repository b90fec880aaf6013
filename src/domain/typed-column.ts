/**
 * An append-only typed column: values pushed one by one live off the JS heap in a typed array
 * that doubles when full, so building a million-row column adds no garbage-collected arrays to
 * mark or copy (docs/architecture.md).
 */

type TypedArray = Int8Array | Uint8Array | Int32Array | Float64Array;

interface TypedArrayConstructor<T extends TypedArray> {
  new (length: number): T;
}

/** A growable typed array; `data` may hold spare room past `length`. */
export class TypedColumn<T extends TypedArray> {
  length = 0;
  data: T;

  constructor(
    private readonly Kind: TypedArrayConstructor<T>,
    capacity = 0,
  ) {
    this.data = new Kind(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new this.Kind(Math.max(1024, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** A copy holding exactly the pushed values. */
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}
