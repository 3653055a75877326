// "Did you meet?" (issue 29, section 7): each person's private answer about a confirmed
// plan that has ended. One row per (plan, person who answered); `about_id` is the other
// person, so the Discover penalty (repeated no-show reports, lib/plans/reviews.ts) is one
// index range per candidate. No trigger bumps inbox versions: nothing the other person
// reads changes when someone answers, which is what keeps the answer private.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plan_reviews')
    .addColumn('plan_id', 'uuid', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('about_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('met', 'no_show', 'cancelled')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('plan_reviews_pkey', ['plan_id', 'user_id'])
    .execute();
  await sql`create index plan_reviews_no_show_idx on plan_reviews (about_id, updated_at) where outcome = 'no_show'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plan_reviews').execute();
}
