import { createRequire } from 'node:module';
import { checkStandIn, installOnce } from '../stand-ins';

type Parse = (sql: string) => object;

// Its own exports object, so replacing the field reaches the server, which reads it on every call.
const engine = createRequire(require.resolve('@vercel/cosmosdb-server'));
checkStandIn('@zeit/cosmosdb-query', 'cosmos/query-cache.ts', engine.resolve);
const queries = engine('@zeit/cosmosdb-query') as { default: Parse };

/** The app asks a few hundred texts; past this the oldest goes. */
const KEPT = 1_000;

/**
 * Each query text parsed and compiled once a process. The server parses every query it is sent to check its partition
 * key, and keeps 100 parsed queries a container, so a new container parsed and compiled them all again. A parsed query
 * holds only its text, its syntax tree and its compiled code, so any container may run it.
 */
export function queriesParsedOnce(): void {
  installOnce('cosmos/query-cache.ts', [], () => {
    const parse = queries.default;
    const parsed = new Map<string, object>();
    queries.default = (sql) => {
      let query = parsed.get(sql);
      if (query === undefined) {
        query = parse(sql);
        if (parsed.size >= KEPT) parsed.delete(parsed.keys().next().value!);
        parsed.set(sql, query);
      }
      return query;
    };
  });
}
