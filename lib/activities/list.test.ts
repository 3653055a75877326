import { describe, expect, it } from 'vitest';
import { ACTIVITIES } from './catalog';
import { activityCatalog } from './list';

describe('activityCatalog', () => {
  it('lists every activity with its total', () => {
    const catalog = activityCatalog();
    expect(catalog.total).toBe(ACTIVITIES.length);
    expect(catalog.activities.map((a) => a.id)).toEqual(ACTIVITIES.map((a) => a.id));
    expect(catalog.activities[0]).toEqual({ ...ACTIVITIES[0], aliases: [...(ACTIVITIES[0]?.aliases ?? [])] });
  });

  it('returns copies, so a caller cannot mutate the shared catalog', () => {
    const catalog = activityCatalog();
    catalog.activities[0]?.aliases.push('mutated');
    expect(activityCatalog().activities[0]?.aliases).not.toContain('mutated');
  });

  it('is JSON-serializable', () => {
    expect(JSON.parse(JSON.stringify(activityCatalog()))).toEqual(activityCatalog());
  });
});
