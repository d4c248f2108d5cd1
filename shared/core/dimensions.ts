// What the filters, the keep's and the fold's audience, the rollup, the reads, the export, the contract and the
// dashboard's list (public/admin-dimensions.js, made by `npm run dashboard`) take from the one table of dimensions.
import { DIMENSION_TABLE } from './dimension-table';

export { DIMENSION_TABLE, type ValueWords } from './dimension-table';

type Row = (typeof DIMENSION_TABLE)[number];
export type Dimension = Row['filter'];
export type DimensionOf<D extends Dimension> = Extract<Row, { filter: D }>;

export const DIMENSIONS = DIMENSION_TABLE.map((row) => row.filter) as unknown as readonly [Dimension, ...Dimension[]];

/** The dimensions the fold keeps filter cells of. */
export const CELL_DIMENSIONS: readonly Dimension[] = DIMENSION_TABLE.filter((row) => !('cells' in row && row.cells === false)).map(
  (row) => row.filter,
);

export const dimensionRow = <D extends Dimension>(dimension: D): DimensionOf<D> =>
  DIMENSION_TABLE.find((row) => row.filter === dimension) as DimensionOf<D>;

/** The dimensions counted as visitor-days by name, like browsers. */
export type NamesRow = Extract<Row, { counts: 'names' }>;
export const NAMES = DIMENSION_TABLE.filter((row): row is NamesRow => 'counts' in row && row.counts === 'names');
/** Their fields on a queued hit, a visitor-day, a rollup and the card's `devices`. */
export type NamesHit = NamesRow['hit'];
export type NamesKept = NamesRow['kept'];
export type NamesRollup = NamesRow['rollup'];
export type NamesCard = NamesRow['card'];

/** The export's list columns, in their places. */
export type ExportedRow = Extract<Row, { export: object }>;
export const EXPORTED = DIMENSION_TABLE.filter((row): row is ExportedRow => 'export' in row).sort((a, b) => a.export.at - b.export.at);

/** The filters' text in the API's documents: each dimension and what its value is. */
export const filtersText = () =>
  DIMENSION_TABLE.map((row) => ('about' in row ? `\`${row.filter}\` ${row.about}` : `\`${row.filter}\``)).join(', ');

/** A value as it is kept. */
export const keptValue = (dimension: Dimension, value: string) => ('upper' in dimensionRow(dimension) ? value.toUpperCase() : value);

/** One filter of a read: `dimension:value`, or its negation. */
export interface Filter {
  dimension: Dimension;
  value: string;
  negated: boolean;
}
