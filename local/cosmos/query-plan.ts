import type { PartitionIndex, TsRange } from './partition-index';

// Picks which documents a query can match from its parsed SQL, as Cosmos DB's index does: `c.f = v`, `IN`,
// `ARRAY_CONTAINS` and `_ts` bounds; anything else reads every document. The engine still runs the whole query, so a
// plan only has to include every document that could match.

type Node = { type: string; [field: string]: unknown };

export type Plan =
  | { kind: 'all' }
  | { kind: 'equal'; field: string; values: unknown[] }
  | { kind: 'ts'; range: TsRange }
  | { kind: 'union' | 'both'; plans: Plan[] };

/** As far as the partition's indexes can answer it. */
export interface QueryShape {
  plan: Plan;
  /** `TOP n … ORDER BY c._ts` ascending with `_ts` bounds reads only the first n in `_ts` order. */
  firstByTs?: { top: number; range: TsRange };
}

type Parameters = readonly { name: string; value: unknown }[] | undefined;

const ALL: Plan = { kind: 'all' };
const OPEN: TsRange = { low: Number.NEGATIVE_INFINITY, lowInclusive: true, high: Number.POSITIVE_INFINITY, highInclusive: true };
const CONSTANTS: Record<string, (node: Node) => unknown> = {
  string_constant: (node) => node.value,
  number_constant: (node) => node.value,
  boolean_constant: (node) => node.value,
  null_constant: () => null,
};
const FLIPPED: Record<string, string> = { '>': '<', '>=': '<=', '<': '>', '<=': '>=' };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
const isPrimitive = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

export function shapeOf(ast: unknown, parameters: Parameters): QueryShape {
  const body = isNode(ast) && isNode(ast.body) ? ast.body : undefined;
  const alias = body ? rootAlias(body) : undefined;
  const condition = isNode(body?.where) ? body.where.condition : undefined;
  if (!body || alias === undefined || !isNode(condition)) return { plan: ALL };
  const reader = new Reader(alias, new Map((parameters ?? []).map(({ name, value }) => [name, value])));
  const plan = reader.plan(condition);
  const top = reader.top(body.top);
  const range = reader.tsBounds(condition);
  return top !== undefined && range && reader.ordersByTs(body.orderBy) ? { plan, firstByTs: { top, range } } : { plan };
}

/** Counted without gathering them. */
export function sizeOf<V>(plan: Plan, index: PartitionIndex<V>): number {
  switch (plan.kind) {
    case 'all':
      return Number.POSITIVE_INFINITY;
    case 'equal':
      return index.equalSize(plan.field, plan.values);
    case 'ts': {
      const { from, to } = index.tsRange(plan.range);
      return to - from;
    }
    case 'union':
      return plan.plans.reduce((sum, part) => sum + sizeOf(part, index), 0);
    case 'both':
      return Math.min(...plan.plans.map((part) => sizeOf(part, index)));
  }
}

/** A superset of what the query matches; undefined for every document. */
export function keysOf<V>(plan: Plan, index: PartitionIndex<V>): Set<string> | undefined {
  switch (plan.kind) {
    case 'all':
      return undefined;
    case 'equal':
      return index.equal(plan.field, plan.values);
    case 'ts': {
      const { from, to } = index.tsRange(plan.range);
      return new Set(index.tsSlice(from, to, Number.POSITIVE_INFINITY).keys);
    }
    case 'union':
      return new Set(plan.plans.flatMap((part) => [...(keysOf(part, index) ?? [])]));
    case 'both': {
      const fewest = plan.plans.reduce((best, part) => (sizeOf(part, index) < sizeOf(best, index) ? part : best));
      return keysOf(fewest, index);
    }
  }
}

/** `c` in `FROM c`, `r` in `FROM root r`. */
function rootAlias(body: Node): string | undefined {
  const source = isNode(body.from) && isNode(body.from.source) ? body.from.source : undefined;
  const expression = isNode(source?.expression) ? source.expression : undefined;
  if (expression?.type !== 'collection_expression') return undefined;
  const named = isNode(source?.alias) ? source.alias : expression.expression;
  return isNode(named) && named.type === 'identifier' ? String(named.name) : undefined;
}

class Reader {
  constructor(
    private readonly alias: string,
    private readonly parameters: ReadonlyMap<string, unknown>,
  ) {}

  plan(node: Node): Plan {
    if (node.type === 'scalar_binary_expression') return this.binary(node);
    if (node.type === 'scalar_in_expression' && Object.keys(node).length === 3) return this.inList(node);
    if (node.type === 'scalar_function_expression') return this.arrayContains(node);
    return ALL;
  }

  /** Only the filter's top-level ANDs. */
  tsBounds(node: Node): TsRange | undefined {
    const bounds = this.conjuncts(node).flatMap((part) => {
      const plan = this.plan(part);
      return plan.kind === 'ts' ? [plan.range] : [];
    });
    return bounds.length ? bounds.reduce(narrowest) : undefined;
  }

  top(node: unknown): number | undefined {
    if (!isNode(node) || !isNode(node.value)) return undefined;
    const value = this.valueOf(node.value);
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  }

  ordersByTs(node: unknown): boolean {
    if (!isNode(node) || !Array.isArray(node.expressions) || node.expressions.length !== 1) return false;
    const [sort] = node.expressions as unknown[];
    return isNode(sort) && isNode(sort.expression) && this.fieldOf(sort.expression) === '_ts' && sort.order !== 'DESC';
  }

  private conjuncts(node: Node): Node[] {
    if (node.type !== 'scalar_binary_expression' || node.operator !== 'AND' || !isNode(node.left) || !isNode(node.right)) return [node];
    return [...this.conjuncts(node.left), ...this.conjuncts(node.right)];
  }

  private binary(node: Node): Plan {
    if (!isNode(node.left) || !isNode(node.right)) return ALL;
    const operator = String(node.operator);
    if (operator === 'AND' || operator === 'OR') {
      const plans = [this.plan(node.left), this.plan(node.right)];
      const known = plans.filter((plan) => plan.kind !== 'all');
      if (operator === 'OR') return known.length === 2 ? { kind: 'union', plans } : ALL;
      return known.length === 0 ? ALL : known.length === 1 ? known[0]! : { kind: 'both', plans };
    }
    const [field, value, op] =
      this.fieldOf(node.left) !== undefined
        ? [this.fieldOf(node.left), this.valueOf(node.right), operator]
        : [this.fieldOf(node.right), this.valueOf(node.left), FLIPPED[operator] ?? operator];
    if (field === undefined || !isPrimitive(value)) return ALL;
    if (op === '=') return { kind: 'equal', field, values: [value] };
    return field === '_ts' && typeof value === 'number' && op in FLIPPED ? { kind: 'ts', range: rangeOf(op, value) } : ALL;
  }

  private inList(node: Node): Plan {
    const field = isNode(node.value) ? this.fieldOf(node.value) : undefined;
    const values = Array.isArray(node.list) ? (node.list as unknown[]).map((item) => (isNode(item) ? this.valueOf(item) : undefined)) : [];
    return field !== undefined && values.length && values.every(isPrimitive) ? { kind: 'equal', field, values } : ALL;
  }

  private arrayContains(node: Node): Plan {
    const name = isNode(node.name) ? String(node.name.name).toUpperCase() : '';
    const args = Array.isArray(node.arguments) ? (node.arguments as unknown[]) : [];
    if (name !== 'ARRAY_CONTAINS' || args.length !== 2 || !isNode(args[0]) || !isNode(args[1])) return ALL;
    const list = this.valueOf(args[0]);
    const field = this.fieldOf(args[1]);
    return field !== undefined && Array.isArray(list) && list.every(isPrimitive) ? { kind: 'equal', field, values: list } : ALL;
  }

  /** `c.f` or `c["f"]` is the field `f`. */
  private fieldOf(node: Node): string | undefined {
    if (node.type !== 'scalar_member_expression' || !isNode(node.object) || !isNode(node.property)) return undefined;
    if (node.object.type !== 'identifier' || node.object.name !== this.alias) return undefined;
    const property = node.property;
    if (!node.computed && property.type === 'identifier') return String(property.name);
    return node.computed && property.type === 'string_constant' ? String(property.value) : undefined;
  }

  /** Undefined for anything computed. */
  private valueOf(node: Node): unknown {
    if (node.type === 'parameter_name') return this.parameters.get(String(node.name));
    if (node.type === 'array_constant' && Array.isArray(node.elements)) {
      return (node.elements as unknown[]).map((element) => (isNode(element) ? this.valueOf(element) : undefined));
    }
    return CONSTANTS[node.type]?.(node);
  }
}

function rangeOf(operator: string, value: number): TsRange {
  if (operator === '>' || operator === '>=') return { ...OPEN, low: value, lowInclusive: operator === '>=' };
  return { ...OPEN, high: value, highInclusive: operator === '<=' };
}

function narrowest(a: TsRange, b: TsRange): TsRange {
  const low = a.low > b.low || (a.low === b.low && !a.lowInclusive) ? a : b;
  const high = a.high < b.high || (a.high === b.high && !a.highInclusive) ? a : b;
  return { low: low.low, lowInclusive: low.lowInclusive, high: high.high, highInclusive: high.highInclusive };
}
