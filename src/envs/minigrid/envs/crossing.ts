/** CrossingEnv (docs/environments.md §8.17): rivers of lava or walls with a monotone path of openings. */
import { COLOR, OBJECT } from '../constants';
import { MiniGridEnv } from '../minigridEnv';

export class CrossingEnv extends MiniGridEnv {
  constructor(readonly size: number, readonly numCrossings: number, readonly obstacle: 'lava' | 'wall') {
    super({ width: size, height: size, maxSteps: 4 * size * size, seeThroughWalls: false, task: 'goal' });
  }

  protected generate(): void {
    const { width: w, height: h } = this;
    this.walledRoomWithCornerGoal();
    this.startTopLeftFacingEast();
    // Candidate rivers: vertical at every even x, then horizontal at every even y.
    const rivers: { vertical: boolean; pos: number }[] = [];
    for (let i = 2; i < h - 2; i += 2) rivers.push({ vertical: true, pos: i });
    for (let j = 2; j < w - 2; j += 2) rivers.push({ vertical: false, pos: j });
    this.rng.shuffle(rivers);
    const kept = rivers.slice(0, this.numCrossings);
    const riversV = kept.filter((r) => r.vertical).map((r) => r.pos).sort((a, b) => a - b);
    const riversH = kept.filter((r) => !r.vertical).map((r) => r.pos).sort((a, b) => a - b);
    const obstacle = (): number => (this.obstacle === 'lava' ? this.newObject(OBJECT.lava, COLOR.red) : this.newObject(OBJECT.wall, COLOR.grey));
    for (let x = 1; x < w - 1; x++) for (const y of riversH) this.set(x, y, obstacle());
    for (const x of riversV) for (let y = 1; y < h - 1; y++) this.set(x, y, obstacle());
    // One opening per river, along a shuffled right/down staircase.
    const path: ('h' | 'v')[] = [...riversV.map(() => 'h' as const), ...riversH.map(() => 'v' as const)];
    this.rng.shuffle(path);
    const limitsV = [0, ...riversV, h - 1];
    const limitsH = [0, ...riversH, w - 1];
    let roomI = 0;
    let roomJ = 0;
    for (const dir of path) {
      let x: number;
      let y: number;
      if (dir === 'h') {
        x = limitsV[roomI + 1]!;
        y = this.randInt(limitsH[roomJ]! + 1, limitsH[roomJ + 1]!);
        roomI++;
      } else {
        x = this.randInt(limitsV[roomI]! + 1, limitsV[roomI + 1]!);
        y = limitsH[roomJ + 1]!;
        roomJ++;
      }
      this.set(x, y, 0);
    }
    this.mission = this.obstacle === 'lava' ? 'avoid the lava and get to the green goal square' : 'find the opening and get to the green goal square';
  }
}
