/**
 * Writes webview-ui/shared/protocolSchemas.json from src/protocol/webview.ts:
 *   npx tsx test/unit/webview/generateSchemas.ts
 * (schemas.test.ts fails when the committed file is out of date.)
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { webviewJsonSchemas } from '../../../src/protocol/webview';

export const SCHEMA_FILE = resolve(__dirname, '../../../webview-ui/shared/protocolSchemas.json');

export function schemaFileText(): string {
  return `${JSON.stringify(webviewJsonSchemas(), null, 1)}\n`;
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaFileText());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
