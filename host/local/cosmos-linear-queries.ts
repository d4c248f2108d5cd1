import { createRequire } from 'node:module';
import { checkStandIn, installOnce } from './stand-ins';

type Transform = (ast: object) => unknown;

// The engine's modules as the server itself loads them, and their own exports objects (not an import's copy or
// namespace), so that replacing a field reaches the engine.
const engine = createRequire(require.resolve('@vercel/cosmosdb-server'));
checkStandIn('@zeit/cosmosdb-query', 'cosmos-linear-queries.ts', engine.resolve);
const transformer = engine('@zeit/cosmosdb-query/lib/transformer') as { default: Transform };
const helpers = engine('@zeit/cosmosdb-query/lib/helpers') as { stripUndefined: (value: unknown) => unknown };

// @zeit/cosmosdb-query (the local Cosmos server's SQL engine) compiles `FROM c` (and each JOIN) into
// `docs.reduce(($, c) => [...$, { c }], [])`, which copies the whole accumulator for every document, and strips
// `undefined` from a result the same way: both quadratic, so 100,000 documents take minutes where 10,000 take a
// fraction of a second. Rewriting `[...$, x]` into `($.push(x), $)` builds the same arrays in linear time; the
// accumulator is a fresh `[]` each reduce starts from and nothing else holds it, so adding to it in place is safe.

type Node = { type: string; [field: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** `[...$, a, ...b]` (the engine's accumulator idiom) as `($.push(a, ...b), $)`, or undefined for any other node. */
function linear(node: Node): Node | undefined {
  if (node.type !== 'ArrayExpression') return undefined;
  const [first, ...rest] = node.elements as (Node | null)[];
  const spreadsAccumulator =
    first?.type === 'SpreadElement' && isNode(first.argument) && first.argument.type === 'Identifier' && first.argument.name === '$';
  if (!spreadsAccumulator || rest.some((element) => element === null)) return undefined;
  const accumulator = { type: 'Identifier', name: '$' };
  const push = { type: 'MemberExpression', object: accumulator, property: { type: 'Identifier', name: 'push' }, computed: false };
  return { type: 'SequenceExpression', expressions: [{ type: 'CallExpression', callee: push, arguments: rest }, accumulator] };
}

function rewrite(node: Node): Node {
  for (const [field, child] of Object.entries(node)) {
    if (Array.isArray(child)) node[field] = child.map((item: unknown) => (isNode(item) ? rewrite(item) : item));
    else if (isNode(child)) node[field] = rewrite(child);
  }
  return linear(node) ?? node;
}

/** The same values as the engine's own `stripUndefined` (no `undefined` in arrays or objects), in linear time. */
function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) if (item !== undefined) kept.push(stripUndefined(item));
    return kept;
  }
  if (value && typeof value === 'object') {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) kept[key] = stripUndefined(item);
    return kept;
  }
  return value;
}

/**
 * Makes the local Cosmos server's query engine linear in the documents it reads (it is quadratic as published), for
 * every query compiled after this in the process. Answers are unchanged: only how the arrays are built differs.
 */
export function linearQueries(): void {
  installOnce('cosmos-linear-queries.ts', [], () => {
    const transform = transformer.default;
    // The engine calls both through their modules' exports on every use, so replacing the exports takes effect.
    transformer.default = (ast) => rewrite(transform(ast) as Node);
    helpers.stripUndefined = stripUndefined;
  });
}
