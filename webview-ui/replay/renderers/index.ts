/** The built-in renderers, registered by family. A new family adds its module here. */
import { bipedalWalkerRenderer, carRacingRenderer, lunarLanderRenderer } from './box2d';
import { acrobotRenderer, cartPoleRenderer, mountainCarRenderer, pendulumRenderer } from './classic';
import { connectFourRenderer } from './connectFour';
import { ctfRenderer } from './ctf';
import { highwayRenderer, parkingRenderer } from './highway';
import { miniGridRenderer } from './minigrid';
import { mujocoRenderer } from './mujoco3d';
import { registerRenderer } from './registry';

for (const r of [cartPoleRenderer, mountainCarRenderer, pendulumRenderer, acrobotRenderer, miniGridRenderer, highwayRenderer, parkingRenderer, lunarLanderRenderer, bipedalWalkerRenderer, carRacingRenderer, mujocoRenderer]) registerRenderer(r);
// Arena matches (two sides, src/protocol/arena.ts), drawn from the frames the host rebuilds from a match file.
for (const r of [ctfRenderer, connectFourRenderer]) registerRenderer(r);

export { rendererFor, registerRenderer, registeredFamilies, type SceneRenderer } from './registry';
export { fallbackRenderer } from './fallback';
