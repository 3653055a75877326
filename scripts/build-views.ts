// npm run build:views: bundles the MCP Apps views (lib/mcp/views/build.ts) and prints each one's gzipped size.
import { VIEW_GZIP_BUDGET, buildViews } from '../lib/mcp/views/build';

const sizes = await buildViews(process.cwd());
for (const { name, bytes, gzipped } of sizes)
  process.stdout.write(
    `MCP view ${name}: ${(bytes / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped` +
      `${gzipped > VIEW_GZIP_BUDGET ? ' (over the 60 KB budget)' : ''}\n`,
  );
