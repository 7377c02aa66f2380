// Upload speed over the last few seconds (a whole-upload average hides stalls), and time left.
const WINDOW_MS = 3000;

export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  /** Records the total bytes sent so far; returns bytes per second. */
  sample(bytes: number, now = performance.now()): number {
    this.samples.push({ t: now, bytes });
    while (this.samples.length > 2 && now - this.samples[0].t > WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const dt = (now - first.t) / 1000;
    return dt > 0.05 ? (bytes - first.bytes) / dt : 0;
  }
}

export const secondsLeft = (remaining: number, speed: number) => (speed > 0 ? remaining / speed : Infinity);
