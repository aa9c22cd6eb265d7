/** The MuJoCo family's implementation, required on first use (../core/lazy.ts). */
import { onFirstUse } from '../core/lazy';
import type * as Implementations from './implementations';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const mujocoImplementations = onFirstUse(() => require('./implementations') as typeof Implementations);
