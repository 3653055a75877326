import { describe, expect, it } from 'vitest';
import {
  ACTIVITIES,
  ACTIVITY_CATEGORIES,
  ACTIVITY_IDS,
  AMBIGUOUS_TERMS,
  getActivity,
  isActivityId,
  type Activity,
} from './catalog';
import { matchActivity } from './canonicalize';
import { activityPhrases, buildActivityIndex } from './lookup';
import { normalizeText } from './text';

describe('activity catalog integrity', () => {
  it('is a sizeable catalog covering every category', () => {
    expect(ACTIVITIES.length).toBeGreaterThanOrEqual(100);
    const used = new Set(ACTIVITIES.map((a) => a.category));
    expect([...used].sort()).toEqual([...ACTIVITY_CATEGORIES].sort());
  });

  it('has unique ids', () => {
    expect(new Set(ACTIVITY_IDS).size).toBe(ACTIVITIES.length);
  });

  it.each(ACTIVITIES.map((a) => [a.id, a] as const))(
    '%s has a snake_case ascii id, a name and clean aliases',
    (_id, activity) => {
      expect(activity.id).toMatch(/^[a-z0-9]+(?:_[a-z0-9]+)*$/);
      expect(activity.name.trim()).not.toBe('');
      for (const alias of activity.aliases) expect(normalizeText(alias)).not.toBe('');
    },
  );

  it('never lets a literal alias, name or id belong to two activities', () => {
    const owners = new Map<string, Set<string>>();
    for (const activity of ACTIVITIES) {
      for (const key of activityPhrases(activity)) owners.set(key, (owners.get(key) ?? new Set()).add(activity.id));
    }
    const shared = [...owners].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key}: ${[...ids].join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('has no collisions even after stemming and space removal', () => {
    expect(buildActivityIndex(ACTIVITIES).collisions).toEqual([]);
  });

  it('detects collisions when two activities share an alias', () => {
    const clash: Activity[] = [
      { id: 'a', name: 'A', category: 'games', aliases: ['shared thing'] },
      { id: 'b', name: 'B', category: 'games', aliases: ['Shared-Things'] },
    ];
    expect(buildActivityIndex(clash).collisions.map((c) => c.ids)).toContainEqual(['a', 'b']);
  });

  it.each(ACTIVITIES.map((a) => [a.id, a] as const))(
    '%s: its own id, name and every alias canonicalize to it',
    (id, activity) => {
      for (const text of [id, activity.name, ...activity.aliases])
        expect([text, matchActivity(text)]).toEqual([text, id]);
    },
  );

  it('keeps ambiguous terms out of the aliases', () => {
    const keys = new Set(ACTIVITIES.flatMap(activityPhrases));
    expect(AMBIGUOUS_TERMS.filter((term) => keys.has(normalizeText(term)))).toEqual([]);
  });
});

describe('catalog accessors', () => {
  it('getActivity returns the entry or undefined', () => {
    expect(getActivity('rock_climbing')).toMatchObject({
      id: 'rock_climbing',
      name: 'Rock Climbing',
      category: 'outdoors',
    });
    expect(getActivity('rock climbing')).toBeUndefined();
    expect(getActivity('')).toBeUndefined();
  });

  it.each([
    ['hiking', true],
    ['board_games', true],
    ['Hiking', false],
    ['hiking ', false],
    ['unknown_thing', false],
    ['toString', false],
    [42, false],
    [null, false],
    [undefined, false],
  ] as const)('isActivityId(%j) is %s', (value, expected) => {
    expect(isActivityId(value)).toBe(expected);
  });

  it('lists ids in catalog order', () => {
    expect(ACTIVITY_IDS).toEqual(ACTIVITIES.map((a) => a.id));
    expect(ACTIVITY_IDS).toEqual(
      expect.arrayContaining(['hiking', 'rock_climbing', 'board_games', 'running', 'road_cycling']),
    );
    expect(ACTIVITY_IDS).toEqual(expect.arrayContaining(['mountain_biking', 'yoga', 'tennis', 'pickleball', 'padel']));
    expect(ACTIVITY_IDS).toEqual(
      expect.arrayContaining(['coffee', 'museums', 'live_music', 'language_exchange', 'dog_walking']),
    );
  });

  it('is frozen so callers cannot corrupt the shared catalog', () => {
    expect(Object.isFrozen(ACTIVITIES)).toBe(true);
    expect(Object.isFrozen(ACTIVITIES[0])).toBe(true);
    expect(Object.isFrozen(ACTIVITIES[0]?.aliases)).toBe(true);
  });
});
