import { quoteLiteral } from './literal';

/**
 * A parameter's SQL type: the cast every occurrence gets, and the TypeScript type it takes. `jsonb`
 * takes JSON text: the hot paths build it field by field once, and the driver passes it as is.
 */
const SQL_TYPES = {
  text: 'text',
  int: 'int',
  bigint: 'bigint',
  boolean: 'boolean',
  jsonb: 'jsonb',
  bytea: 'bytea',
  timestamptz: 'timestamptz',
  textArray: 'text[]',
  intArray: 'int[]',
} as const;
type SqlTypeName = keyof typeof SQL_TYPES;

interface TsTypes {
  text: string;
  int: number;
  bigint: number;
  boolean: boolean;
  jsonb: string;
  bytea: Uint8Array;
  timestamptz: Date;
  textArray: readonly string[];
  intArray: readonly number[];
}

export interface ParamType<T extends SqlTypeName = SqlTypeName, Nullable extends boolean = boolean> {
  readonly type: T;
  /** The cast every occurrence of the parameter gets. */
  readonly sql: (typeof SQL_TYPES)[T];
  readonly nullable: Nullable;
}

const type = <T extends SqlTypeName>(name: T) => ({ type: name, sql: SQL_TYPES[name], nullable: false }) as ParamType<T, false>;
const nullable = <T extends SqlTypeName>(name: T) => ({ type: name, sql: SQL_TYPES[name], nullable: true }) as ParamType<T, true>;

/** The parameter types a {@link namedQuery} declares. */
export const param = {
  text: type('text'),
  int: type('int'),
  bigint: type('bigint'),
  boolean: type('boolean'),
  jsonb: type('jsonb'),
  bytea: type('bytea'),
  /** A `Date`; `timestamp(3)` columns (as Prisma stores them, UTC) take `:at AT TIME ZONE 'UTC'`. */
  timestamptz: type('timestamptz'),
  textArray: type('textArray'),
  intArray: type('intArray'),
  nullableText: nullable('text'),
  nullableJsonb: nullable('jsonb'),
  nullableInt: nullable('int'),
  nullableBigint: nullable('bigint'),
  nullableBoolean: nullable('boolean'),
  nullableTimestamptz: nullable('timestamptz'),
};

type ParamSpec = Record<string, ParamType>;

/** The object a query's parameters are bound from, derived from its declared types. */
type ParamsOf<S extends ParamSpec> = {
  [K in keyof S]: S[K] extends ParamType<infer T, infer N> ? TsTypes[T] | (N extends true ? null : never) : never;
};

/** A statement for the extended protocol; `name` makes Postgres parse and plan it once per connection. */
interface BoundQuery {
  name: string;
  text: string;
  values: unknown[];
}

export interface NamedQuery<S extends ParamSpec, Row> {
  readonly name: string;
  /** The text with `$n` placeholders, one per distinct name, each cast to its declared type. */
  readonly text: string;
  /** A prepared statement's configuration for `params`. */
  bind(params: ParamsOf<S>): BoundQuery;
  /**
   * The text with each parameter written as a typed literal, for a statement sent inside a simple
   * query of several statements (one round trip, which the extended protocol cannot carry).
   */
  inline(params: ParamsOf<S>): string;
  /** The same query, declaring the shape of its rows. */
  returns<R>(): NamedQuery<S, R>;
  /** Phantom: the row type, for {@link rowsOf}. Never set. */
  readonly row?: Row;
}

/** The text split at its parameters: text, name, text, name, …, text. */
function split(text: string): { parts: string[]; names: string[] } {
  const parts: string[] = [];
  const names: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      // A quoted literal or identifier: nothing inside is a parameter (a doubled quote stays inside).
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} in SQL at ${i}`);
      i = end + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '$' && /\d/.test(text[i + 1] ?? '')) {
      throw new Error(`positional parameter at ${i}: write :name`);
    } else if (c === ':' && text[i + 1] === ':') {
      i += 2; // a cast
    } else if (c === ':' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))!;
      parts.push(text.slice(start, i));
      names.push(match[0]);
      i += 1 + match[0].length;
      start = i;
    } else {
      i++;
    }
  }
  parts.push(text.slice(start));
  return { parts, names };
}

function literal(name: string, declared: ParamType, value: unknown): string {
  if (value === null) {
    if (!declared.nullable) throw new Error(`parameter :${name} is null but not nullable`);
    return 'NULL';
  }
  switch (declared.type) {
    case 'text':
    case 'jsonb':
      if (typeof value !== 'string') throw new Error(`parameter :${name} must be a string, got ${typeof value}`);
      return quoteLiteral(value);
    case 'int':
    case 'bigint':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Error(`parameter :${name} must be an integer, got ${String(value)}`);
      return value < 0 ? `(${value})` : String(value);
    case 'boolean':
      if (typeof value !== 'boolean') throw new Error(`parameter :${name} must be a boolean, got ${typeof value}`);
      return value ? 'TRUE' : 'FALSE';
    case 'bytea':
      if (!(value instanceof Uint8Array)) throw new Error(`parameter :${name} must be bytes (a Uint8Array)`);
      return quoteLiteral(`\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`);
    case 'timestamptz':
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new Error(`parameter :${name} must be a valid Date`);
      return quoteLiteral(value.toISOString());
    case 'textArray':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error(`parameter :${name} must be an array of strings`);
      return value.length === 0 ? `'{}'` : `ARRAY[${value.map((v: string) => quoteLiteral(v)).join(',')}]`;
    case 'intArray':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isSafeInteger(v)))
        throw new Error(`parameter :${name} must be an array of integers`);
      return value.length === 0 ? `'{}'` : `ARRAY[${value.join(',')}]`;
  }
}

/**
 * A SQL statement with named parameters (`:session_id`; `::` stays a cast), declared with their
 * types. The text is turned into its positional form once, when the module loads, and a name used
 * in the text but not declared (or declared but never used) throws there, so every import of a
 * broken query fails. Binding is checked by the compiler against the declared types and again at
 * run time (a missing value, an extra key, or a value of the wrong type throws).
 */
export function namedQuery<const S extends ParamSpec>(spec: { name: string; text: string; params: S }): NamedQuery<S, unknown> {
  const { parts, names } = split(spec.text);
  const declared = Object.keys(spec.params);
  const used = [...new Set(names)];
  const undeclared = used.filter((n) => !Object.hasOwn(spec.params, n));
  if (undeclared.length > 0)
    throw new Error(`query ${spec.name}: parameter${undeclared.length > 1 ? 's' : ''} ${undeclared.map((n) => `:${n}`).join(', ')} not declared`);
  const unused = declared.filter((n) => !used.includes(n));
  if (unused.length > 0) throw new Error(`query ${spec.name}: declared parameter${unused.length > 1 ? 's' : ''} ${unused.join(', ')} not used`);

  const position = new Map(used.map((n, i) => [n, i + 1]));
  const text = parts.reduce((out, part, i) => (i === 0 ? part : `${out}$${position.get(names[i - 1]!)}::${spec.params[names[i - 1]!]!.sql}${part}`), '');

  const check = (params: Record<string, unknown>) => {
    for (const key of Object.keys(params)) if (!position.has(key)) throw new Error(`query ${spec.name}: unknown parameter ${key}`);
    for (const n of used) if (params[n] === undefined) throw new Error(`query ${spec.name}: missing parameter ${n}`);
  };

  const query: NamedQuery<S, unknown> = {
    name: spec.name,
    text,
    bind(params) {
      const values = params as Record<string, unknown>;
      check(values);
      return { name: spec.name, text, values: used.map((n) => values[n]) };
    },
    inline(params) {
      const values = params as Record<string, unknown>;
      check(values);
      return parts.reduce((out, part, i) => {
        if (i === 0) return part;
        const n = names[i - 1]!;
        const declaredType = spec.params[n]!;
        return `${out}${literal(n, declaredType, values[n])}::${declaredType.sql}${part}`;
      }, '');
    },
    returns: <R>() => query as unknown as NamedQuery<S, R>,
  };
  return query;
}

/** A query's result rows, typed as the query declares them. */
export const rowsOf = <Row>(_query: NamedQuery<ParamSpec, Row>, result: { rows: unknown[] }): Row[] => result.rows as Row[];
