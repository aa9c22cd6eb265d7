/** The built-in renderers, registered by family. A new family adds its module here. */
import { bipedalWalkerRenderer, carRacingRenderer, lunarLanderRenderer } from './box2d';
import { acrobotRenderer, cartPoleRenderer, mountainCarRenderer, pendulumRenderer } from './classic';
import { highwayRenderer, parkingRenderer } from './highway';
import { miniGridRenderer } from './minigrid';
import { mujocoRenderer } from './mujoco3d';
import { registerRenderer } from './registry';

for (const r of [cartPoleRenderer, mountainCarRenderer, pendulumRenderer, acrobotRenderer, miniGridRenderer, highwayRenderer, parkingRenderer, lunarLanderRenderer, bipedalWalkerRenderer, carRacingRenderer, mujocoRenderer]) registerRenderer(r);

export { rendererFor, registerRenderer, registeredFamilies, type SceneRenderer } from './registry';
export { fallbackRenderer } from './fallback';
