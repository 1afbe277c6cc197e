/** Latencies: 0.1 ms buckets up to 10 s, then 10 ms buckets up to 2,000 s. Mergeable across threads. */
export class Histogram {
  fine = new Uint32Array(100_000);
  coarse = new Uint32Array(200_000);
  n = 0;
  max = 0;
  add(ms) {
    if (ms < 10_000) this.fine[Math.max(0, Math.floor(ms * 10))] += 1;
    else this.coarse[Math.min(this.coarse.length - 1, Math.floor(ms / 10))] += 1;
    this.n += 1;
    if (ms > this.max) this.max = ms;
  }
  /** Adds another histogram's counts (or its structured clone, from a worker thread). */
  merge(other) {
    for (let i = 0; i < this.fine.length; i++) this.fine[i] += other.fine[i];
    for (let i = 0; i < this.coarse.length; i++) this.coarse[i] += other.coarse[i];
    this.n += other.n;
    this.max = Math.max(this.max, other.max);
  }
  percentile(p) {
    const target = Math.ceil(this.n * p);
    let seen = 0;
    for (let i = 0; i < this.fine.length; i++) if ((seen += this.fine[i]) >= target) return i / 10;
    for (let i = 0; i < this.coarse.length; i++) if ((seen += this.coarse[i]) >= target) return i * 10;
    return this.max;
  }
}
