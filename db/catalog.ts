// A plain-text dump of what the migrations built, read from PostgreSQL's catalogs: every
// table, column, constraint, index, trigger, function, sequence, type, view and statistics
// object in every schema but the system ones. Objects that belong to an extension are
// left out (the extension itself is listed, with its version). Used by db/schema.test.ts.
import { sql, type Kysely, type RawBuilder } from 'kysely';

export interface CatalogColumn {
  table: string;
  name: string;
  /** format_type(), e.g. "bit(126)", "text[]", "timestamp with time zone". */
  type: string;
  /** pg_type.typname of the column's type, e.g. "int8", "_text". */
  udt: string;
  notNull: boolean;
  default: string | null;
  /** 's' for a stored generated column, '' otherwise. */
  generated: string;
  /** 'a' or 'd' for an identity column, '' otherwise. */
  identity: string;
}

export interface Catalog {
  extensions: string[];
  schemas: string[];
  relations: string[];
  columns: CatalogColumn[];
  constraints: string[];
  indexes: string[];
  triggers: string[];
  functions: string[];
  sequences: string[];
  types: string[];
  views: string[];
  statistics: string[];
  policies: string[];
}

// Schemas PostgreSQL itself owns.
const userSchemas = sql.raw(`n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
  and n.nspname not like 'pg\\_temp%'`);
// Not a member of an extension (cube's functions, earthdistance's types and so on).
const notFromExtension = (catalog: string, oid: string) =>
  sql.raw(`not exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${oid}
    and d.deptype = 'e')`);

async function texts(db: Kysely<any>, query: RawBuilder<{ t: string }>): Promise<string[]> {
  const { rows } = await query.execute(db);
  return rows.map((r) => r.t).sort();
}

export async function readCatalog(db: Kysely<any>): Promise<Catalog> {
  const extensions = await texts(db, sql`select extname || ' ' || extversion as t from pg_extension`);
  const schemas = await texts(db, sql`select n.nspname as t from pg_namespace n where ${userSchemas}`);
  const relations = await texts(
    db,
    sql`
    select n.nspname || '.' || c.relname || ' kind=' || c.relkind::text || ' persistence=' || c.relpersistence::text
      || ' rls=' || c.relrowsecurity as t
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${userSchemas} and ${notFromExtension('pg_class', 'c.oid')}`,
  );
  const { rows: columns } = await sql<CatalogColumn>`
    select n.nspname || '.' || c.relname as "table", a.attname as name,
      format_type(a.atttypid, a.atttypmod) as type, t.typname as udt, a.attnotnull as "notNull",
      pg_get_expr(ad.adbin, ad.adrelid) as default, a.attgenerated::text as generated, a.attidentity::text as identity
    from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_type t on t.oid = a.atttypid
      left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
    where ${userSchemas} and ${notFromExtension('pg_class', 'c.oid')}
      and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
    order by n.nspname, c.relname, a.attnum`.execute(db);
  const constraints = await texts(
    db,
    sql`
    select n.nspname || '.' || coalesce(c.relname, '-') || ' ' || k.conname || ': ' || pg_get_constraintdef(k.oid)
      || case when k.condeferrable then ' deferrable' else '' end as t
    from pg_constraint k join pg_namespace n on n.oid = k.connamespace left join pg_class c on c.oid = k.conrelid
    where ${userSchemas} and ${notFromExtension('pg_constraint', 'k.oid')}
      -- The checks of an extension's domain (earthdistance's earth) come with the extension.
      and (k.contypid = 0 or ${notFromExtension('pg_type', 'k.contypid')})`,
  );
  const indexes = await texts(
    db,
    sql`
    select pg_get_indexdef(i.indexrelid) as t
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where ${userSchemas} and ${notFromExtension('pg_class', 'c.oid')}`,
  );
  const triggers = await texts(
    db,
    sql`
    select pg_get_triggerdef(g.oid) || case g.tgenabled when 'O' then '' else ' enabled=' || g.tgenabled::text end as t
    from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not g.tgisinternal and ${userSchemas}`,
  );
  const functions = await texts(
    db,
    sql`
    select case when p.prokind in ('f', 'p') then pg_get_functiondef(p.oid) else p.oid::regprocedure::text end as t
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where ${userSchemas} and ${notFromExtension('pg_proc', 'p.oid')}`,
  );
  const sequences = await texts(
    db,
    sql`
    select s.schemaname || '.' || s.sequencename || ' ' || s.data_type::text || ' start=' || s.start_value
      || ' min=' || s.min_value || ' max=' || s.max_value || ' by=' || s.increment_by || ' cycle=' || s.cycle
      || ' cache=' || s.cache_size as t
    from pg_sequences s where s.schemaname not in ('pg_catalog', 'information_schema')`,
  );
  const types = await texts(
    db,
    sql`
    select n.nspname || '.' || t.typname || ' ' || t.typtype::text
      || coalesce(' ' || (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
      || coalesce(' base=' || format_type(nullif(t.typbasetype, 0), t.typtypmod), '') as t
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where ${userSchemas} and ${notFromExtension('pg_type', 't.oid')}
      -- A table's row type and array types come with the table or type they belong to.
      and t.typelem = 0 and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')`,
  );
  const views = await texts(
    db,
    sql`
    select n.nspname || '.' || c.relname || ': ' || pg_get_viewdef(c.oid) as t
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('v', 'm') and ${userSchemas} and ${notFromExtension('pg_class', 'c.oid')}`,
  );
  const statistics = await texts(
    db,
    sql`
    select pg_get_statisticsobjdef(s.oid) as t
    from pg_statistic_ext s join pg_namespace n on n.oid = s.stxnamespace where ${userSchemas}`,
  );
  const policies = await texts(
    db,
    sql`
    select schemaname || '.' || tablename || ' ' || policyname || ' ' || cmd || ' ' || coalesce(qual, '')
      || ' ' || coalesce(with_check, '') as t
    from pg_policies`,
  );
  return {
    extensions,
    schemas,
    relations,
    columns,
    constraints,
    indexes,
    triggers,
    functions,
    sequences,
    types,
    views,
    statistics,
    policies,
  };
}
