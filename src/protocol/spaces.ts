/** JSON descriptions of observation and action spaces, as they travel in feedback and policy contexts. */
export type BoxDtype = 'float32' | 'float64' | 'uint8' | 'int32';
/** JSON cannot hold infinities, so bounds use the strings "inf" and "-inf" for them. */
export type JsonBound = number | 'inf' | '-inf';

export type SpaceDescription =
  | { type: 'Box'; shape: number[]; dtype: BoxDtype; low: JsonBound[]; high: JsonBound[] }
  | { type: 'Discrete'; n: number; start: number }
  | { type: 'MultiDiscrete'; nvec: number[] }
  | { type: 'MultiBinary'; n: number }
  | { type: 'Dict'; spaces: Record<string, SpaceDescription> }
  | { type: 'Tuple'; spaces: SpaceDescription[] }
  | { type: 'Text'; minLength: number; maxLength: number };
