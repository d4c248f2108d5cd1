import { createRequire } from 'node:module';
import { checkStandIn, installOnce } from '../stand-ins';

type Transform = (ast: object) => unknown;

// Their own exports objects, so replacing a field reaches the engine.
const engine = createRequire(require.resolve('@vercel/cosmosdb-server'));
checkStandIn('@zeit/cosmosdb-query', 'cosmos/linear-queries.ts', engine.resolve);
const transformer = engine('@zeit/cosmosdb-query/lib/transformer') as { default: Transform };
const helpers = engine('@zeit/cosmosdb-query/lib/helpers') as { stripUndefined: (value: unknown) => unknown };

// The engine builds results with `[...$, x]` in a reduce, which is quadratic: 100,000 documents take minutes.
// `($.push(x), $)` builds the same arrays in linear time, and is safe since each reduce starts from a fresh `[]`.

type Node = { type: string; [field: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** Undefined for any other node. */
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

/** The engine's own `stripUndefined`, in linear time. */
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

/** For every query compiled after this in the process; answers are unchanged. */
export function linearQueries(): void {
  installOnce('cosmos/linear-queries.ts', [], () => {
    const transform = transformer.default;
    // The engine calls both through their modules' exports on every use, so replacing the exports takes effect.
    transformer.default = (ast) => rewrite(transform(ast) as Node);
    helpers.stripUndefined = stripUndefined;
  });
}
