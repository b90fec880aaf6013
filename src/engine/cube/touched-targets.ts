/**
 * A dense accumulator (key * stride + slot) that remembers the keys written to it, so a request
 * that reuses it per snapshot pays for the keys its scope touches, not for the whole key space
 * (docs/architecture.md#per-event-sums: request cost follows the scope). Requests run synchronously
 * on one thread, so one instance per snapshot is safe as long as it is cleared before it is handed
 * out again.
 */
export class TouchedTargets {
  readonly values: Float64Array;
  /** The touched keys are keys[0 .. count), in first-touch order until sortKeys(). */
  readonly keys: Int32Array;
  count = 0;
  private readonly marked: Uint8Array;

  readonly stride: number;
  constructor(size: number, stride: number) {
    this.stride = stride;
    this.values = new Float64Array(size * stride);
    this.keys = new Int32Array(size);
    this.marked = new Uint8Array(size);
  }

  /** Records that `key` is (about to be) written. */
  touch(key: number): void {
    if (this.marked[key] !== 0) return;
    this.marked[key] = 1;
    this.keys[this.count++] = key;
  }

  /**
   * Records every key with a non-zero slot: after a scan of more rows than the key space has
   * keys, one pass over the key space costs less than a touch per row.
   */
  touchNonZero(): void {
    const { values, stride } = this;
    const size = this.marked.length;
    for (let key = 0; key < size; key++) {
      const end = key * stride + stride;
      for (let s = key * stride; s < end; s++) {
        if (values[s] !== 0) {
          this.touch(key);
          break;
        }
      }
    }
  }

  /** Subtracts `other`'s touched keys' slots from this one's (same stride), touching them here. */
  subtract(other: TouchedTargets): void {
    const { values, stride } = this;
    for (let i = 0; i < other.count; i++) {
      const key = other.keys[i];
      this.touch(key);
      const end = key * stride + stride;
      for (let s = key * stride; s < end; s++) values[s] -= other.values[s];
    }
  }

  /** The touched keys in ascending order (the order a dense loop would visit them). */
  sortKeys(): Int32Array {
    return this.keys.subarray(0, this.count).sort();
  }

  /** Zeroes the touched keys' slots and forgets them. */
  clear(): void {
    const { keys, marked, values, stride } = this;
    for (let i = 0; i < this.count; i++) {
      const key = keys[i];
      marked[key] = 0;
      values.fill(0, key * stride, key * stride + stride);
    }
    this.count = 0;
  }
}
