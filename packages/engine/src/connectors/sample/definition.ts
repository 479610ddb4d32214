/**
 * The built-in sample: a toy shop (customers, products, orders and their lines) generated in
 * process, so that a new user can run a first sync into the warehouse with no database of their own.
 * Every value comes from the row's id through a seeded generator: the same rows on every read, any
 * id range readable without the rows before it (incremental reads on `id` need no state).
 */
import { Type } from 'typebox';
import {
  ConnectorError,
  type ColumnSchema,
  type ConnectorDefinition,
  type ConnectorHandle,
  type DatasetSchema,
  type ReadRequest,
  type RecordBatch,
  type Value,
} from '../../types.js';

export const sampleSpec = Type.Object(
  {
    scale: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 1,
        title: 'Scale',
        description: 'Multiplies the number of customers (100), orders (1,000) and order lines (about 2,500)',
      }),
    ),
  },
  { additionalProperties: false },
);

const DEFAULT_BATCH = 5_000;
const EPOCH = Date.UTC(2024, 0, 1);
const COUNTRIES = ['DE', 'FR', 'GB', 'US', 'CA', 'JP', 'BR', 'IN', 'ES', 'IT'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Linus'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Hamilton',
  'Torvalds',
];
const CATEGORIES = ['toys', 'games', 'books', 'puzzles', 'crafts'];
const ADJECTIVES = [
  'Wooden',
  'Giant',
  'Tiny',
  'Magnetic',
  'Glowing',
  'Classic',
  'Electric',
  'Folding',
  'Cosmic',
  'Silly',
];
const NOUNS = ['Robot', 'Train', 'Kite', 'Blocks', 'Dragon', 'Rocket', 'Maze', 'Puppet', 'Castle', 'Yo-yo'];
const STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'delivered', 'delivered', 'returned'];
const PRODUCTS = 50;

const column = (name: string, type: ColumnSchema['type'], extra: Partial<ColumnSchema> = {}): ColumnSchema => ({
  name,
  type,
  sourceType: type,
  nullable: false,
  ...extra,
});
const money = (name: string) => column(name, 'decimal', { precision: 10, scale: 2 });

/** A number in [0, 1) from a seed: mulberry32, one step. */
function random(seed: number): number {
  let t = (seed + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
/** The `k`-th draw for row `id` of a table: independent of every other row. */
const draw = (table: number, id: number, k: number) => random(table * 1_000_003 + id * 31 + k);
const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)]!;
const timestamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}.000000Z`;
const cents = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

interface SampleTable {
  schema: DatasetSchema;
  rows(scale: number): number;
  /** The row with this id (1-based), in column order. */
  row(id: number, scale: number): Value[];
}

const priceOf = (productId: number) => cents(2 + draw(2, productId, 2) * 98);
const linesOf = (orderId: number) => 1 + Math.floor(draw(3, orderId, 3) * 4);

const TABLES: Record<string, SampleTable> = {
  customers: {
    schema: {
      namespace: null,
      name: 'customers',
      columns: [
        column('id', 'int32'),
        column('name', 'string'),
        column('email', 'string'),
        column('country', 'string'),
        column('created_at', 'timestamptz'),
      ],
      primaryKey: ['id'],
      rowEstimate: 100,
    },
    rows: (scale) => 100 * scale,
    row(id) {
      const first = pick(FIRST, draw(1, id, 0));
      const last = pick(LAST, draw(1, id, 1));
      return [
        id,
        `${first} ${last}`,
        `${first}.${last}.${id}@example.com`.toLowerCase(),
        pick(COUNTRIES, draw(1, id, 2)),
        timestamp(EPOCH + Math.floor(draw(1, id, 3) * 180) * 86_400_000 + id * 1000),
      ];
    },
  },
  products: {
    schema: {
      namespace: null,
      name: 'products',
      columns: [column('id', 'int32'), column('name', 'string'), column('category', 'string'), money('price')],
      primaryKey: ['id'],
      rowEstimate: PRODUCTS,
    },
    rows: () => PRODUCTS,
    row: (id) => [
      id,
      `${pick(ADJECTIVES, draw(2, id, 0))} ${pick(NOUNS, draw(2, id, 1))} #${id}`,
      pick(CATEGORIES, draw(2, id, 3)),
      priceOf(id),
    ],
  },
  orders: {
    schema: {
      namespace: null,
      name: 'orders',
      columns: [
        column('id', 'int32'),
        column('customer_id', 'int32'),
        column('ordered_at', 'timestamptz'),
        column('status', 'string'),
        money('total'),
      ],
      primaryKey: ['id'],
      rowEstimate: 1_000,
    },
    rows: (scale) => 1_000 * scale,
    row(id, scale) {
      let total = 0;
      for (let line = 1; line <= linesOf(id); line++) {
        const [, , productId, quantity] = orderLine(id, line);
        total += Number(priceOf(productId)) * quantity;
      }
      return [
        id,
        1 + Math.floor(draw(3, id, 0) * 100 * scale),
        // Orders come in id order, about one every 15 minutes.
        timestamp(EPOCH + 200 * 86_400_000 + id * 900_000 + Math.floor(draw(3, id, 1) * 600_000)),
        pick(STATUSES, draw(3, id, 2)),
        cents(total),
      ];
    },
  },
  order_items: {
    schema: {
      namespace: null,
      name: 'order_items',
      columns: [
        column('id', 'int32'),
        column('order_id', 'int32'),
        column('product_id', 'int32'),
        column('quantity', 'int32'),
        money('unit_price'),
      ],
      primaryKey: ['id'],
      rowEstimate: 2_500,
    },
    // Four line slots per order, of which the order uses its first 1 to 4: ids stay computable.
    rows: (scale) => 4_000 * scale,
    row(id) {
      const orderId = Math.ceil(id / 4);
      const line = id - (orderId - 1) * 4;
      const [, , productId, quantity] = orderLine(orderId, line);
      return [id, orderId, productId, quantity, priceOf(productId)];
    },
  },
};

function orderLine(orderId: number, line: number): [number, number, number, number] {
  return [
    orderId,
    line,
    1 + Math.floor(draw(4, orderId * 4 + line, 0) * PRODUCTS),
    1 + Math.floor(draw(4, orderId * 4 + line, 1) * 3),
  ];
}

/** Whether the row exists: an order's unused line slots do not. */
const exists = (table: string, id: number) =>
  table !== 'order_items' || id - (Math.ceil(id / 4) - 1) * 4 <= linesOf(Math.ceil(id / 4));

function tableOf(request: ReadRequest): SampleTable {
  const table = TABLES[request.dataset.name];
  if (!table || (request.dataset.namespace !== null && request.dataset.namespace !== undefined))
    throw new ConnectorError(
      'not_found',
      `the sample has no dataset "${request.dataset.name}" (it has ${Object.keys(TABLES).join(', ')})`,
      false,
    );
  return table;
}

async function* readSample(request: ReadRequest, scale: number, signal?: AbortSignal): AsyncIterable<RecordBatch> {
  const table = tableOf(request);
  const all = table.schema.columns;
  if (request.query) throw new ConnectorError('unsupported', 'the sample takes no query', false);
  const picked = request.columns?.length ? request.columns : all.map((c) => c.name);
  const indexes = picked.map((name) => {
    const index = all.findIndex((c) => c.name === name);
    if (index < 0)
      throw new ConnectorError('not_found', `the sample's "${table.schema.name}" has no column "${name}"`, false);
    return index;
  });
  const columns = indexes.map((i) => all[i]!);
  // Ids are the only cursor and range column: the bounds are ids.
  const boundOf = (name: string | undefined, value: Value | undefined, fallback: number) => {
    if (value === undefined || value === null) return fallback;
    if (name !== 'id') throw new ConnectorError('unsupported', 'the sample reads incrementally on "id" only', false);
    return Number(value);
  };
  let first = 1;
  let last = table.rows(scale);
  if (request.incremental) {
    first = Math.max(first, Math.floor(boundOf(request.incremental.cursorColumn, request.incremental.after, 0)) + 1);
    last = Math.min(last, boundOf(request.incremental.cursorColumn, request.incremental.upTo, last));
  }
  if (request.range) {
    first = Math.max(first, Math.ceil(boundOf(request.range.column, request.range.from, first)));
    last = Math.min(last, Math.ceil(boundOf(request.range.column, request.range.to, last + 1)) - 1);
  }
  const batchSize = request.batchSize ?? DEFAULT_BATCH;
  let rows: Value[][] = [];
  for (let id = first; id <= last; id++) {
    if (!exists(table.schema.name, id)) continue;
    const row = table.row(id, scale);
    rows.push(indexes.map((i) => row[i]!));
    if (rows.length === batchSize) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      yield { columns, rows };
      rows = [];
    }
  }
  if (rows.length > 0) yield { columns, rows };
}

export const sampleConnector: ConnectorDefinition<typeof sampleSpec> = {
  kind: 'sample',
  title: 'Sample data (a toy shop)',
  version: 1,
  spec: sampleSpec,
  capabilities: { read: true, write: false, writeModes: [] },
  async open(config): Promise<ConnectorHandle> {
    const scale = config.scale ?? 1;
    return {
      check: async () => ({ ok: true, detail: `a toy shop at scale ${scale}, generated in process` }),
      discover: async () =>
        Object.values(TABLES).map((table) => ({
          ...table.schema,
          rowEstimate: table.schema.rowEstimate! * (table.schema.name === 'products' ? 1 : scale),
        })),
      read: (request, signal) => readSample(request, scale, signal),
      keyBounds: async (dataset, column) => {
        const table = tableOf({ dataset });
        if (column !== 'id') return null;
        return { min: 1, max: table.rows(scale) };
      },
      close: async () => undefined,
    };
  },
};
