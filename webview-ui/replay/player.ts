/**
 * Playback clock: advances frames at the environment's step rate times the chosen speed on
 * requestAnimationFrame, so playback runs at display rate and drops no work into a backlog when
 * the tab stalls (the accumulated time is capped).
 */
export class Player {
  frame = 0;
  playing = false;
  private acc = 0;
  private last = 0;
  private raf = 0;

  constructor(
    public frames: number,
    public stepsPerSecond: number,
    public speed: number,
    private readonly onFrame: (frame: number) => void,
    private readonly onPlayingChange: (playing: boolean) => void,
  ) {}

  play(): void {
    if (this.playing || this.frames <= 1) return;
    if (this.frame >= this.frames - 1) this.frame = 0;
    this.playing = true;
    this.acc = 0;
    this.last = performance.now();
    this.onPlayingChange(true);
    this.raf = requestAnimationFrame(this.tick);
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.raf);
    this.onPlayingChange(false);
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  seek(frame: number): void {
    const f = Math.max(0, Math.min(this.frames - 1, Math.round(frame)));
    if (f === this.frame) return;
    this.frame = f;
    this.onFrame(f);
  }

  step(delta: number): void {
    this.pause();
    this.seek(this.frame + delta);
  }

  private readonly tick = (now: number): void => {
    if (!this.playing) return;
    const dt = Math.min(250, now - this.last);
    this.last = now;
    this.acc += (dt / 1000) * this.stepsPerSecond * this.speed;
    const advance = Math.floor(this.acc);
    if (advance > 0) {
      this.acc -= advance;
      const next = Math.min(this.frames - 1, this.frame + advance);
      this.frame = next;
      this.onFrame(next);
      if (next >= this.frames - 1) {
        this.pause();
        return;
      }
    }
    this.raf = requestAnimationFrame(this.tick);
  };
}
