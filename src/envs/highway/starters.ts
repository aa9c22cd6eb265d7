export const highwayStarter = `export class Policy {\n  constructor(_ctx: PolicyContext) {}\n  act(): Action {\n    return 1;\n  }\n}\n`;
export const HIGHWAY_DECLARATIONS = '';
