// The profile editor's state: the server's profile (kept live by SWR), the form, and saving it with PATCH /me.json.

import { useEffect, useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { paths } from '@/lib/contract/paths';
import type { OwnProfile } from '@/lib/contract/profiles';
import { addActivities, useActivityLookup } from './activity-chips';
import { getJson, sendJson } from './api-client';
import { useFocusAfterSubmit } from './fields';
import { changes, errorsByField, valuesOf, type FormValues } from './profile-form';
import { serverRenamings, warningLines, type Status } from './profile-save-notes';
import { useLocalDate } from './use-local-date';

const ME = paths.me();

export function useProfileEditor(initial: OwnProfile, activityNames: Record<string, string>) {
  const { data, mutate } = useSWR<{ profile: OwnProfile }>(ME, getJson, {
    fallbackData: { profile: initial },
    revalidateOnMount: false,
  });
  const profile = data?.profile ?? initial;
  const [base, setBase] = useState<FormValues>(() => valuesOf(initial, activityNames));
  const [values, setValues] = useState<FormValues>(base);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status | null>(null);
  const [saving, setSaving] = useState(false);
  const [draft, setDraft] = useState('');
  const [renamed, setRenamed] = useState<string[]>([]);
  const { lookup, names } = useActivityLookup();
  const [saved, setSaved] = useState<string | null>(null);
  const summary = useFocusAfterSubmit<HTMLDivElement>();
  const edited = Object.keys(changes(base, values)).length > 0 || draft.trim() !== '';
  const city = (profile.public_location ?? '').split(',')[0]?.trim() || null;
  const birthdayText = useLocalDate(values.birthday || null, false);
  const changedText = useLocalDate(profile.updated_at, true);

  // Someone else (an agent, another tab) changed the profile: follow it unless mid-edit.
  const latest = valuesOf(profile, activityNames);
  const stale = JSON.stringify(latest) !== JSON.stringify(base);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows a new server version (updated_at), never the person's own typing
  useEffect(() => {
    if (stale && !edited) {
      setBase(latest);
      setValues(latest);
    }
  }, [profile.updated_at]);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setSaved(null);
    setValues((v) => ({ ...v, [key]: value }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    // Words still in the activity box count as added.
    const typed = addActivities(values.activities, draft, lookup);
    const sending = { ...values, activities: typed.chips };
    const renamedNow = [...renamed, ...typed.renamed];
    if (draft.trim() !== '') {
      setValues(sending);
      setDraft('');
      setRenamed(renamedNow);
    }
    const body = changes(base, sending);
    if (Object.keys(body).length === 0) {
      setStatus(null);
      setSaved('Nothing to save: you haven’t changed anything');
      return;
    }
    setSaving(true);
    setStatus(null);
    setSaved(null);
    const result = await sendJson<{ profile: OwnProfile; warnings?: Record<string, unknown> }>('PATCH', ME, body);
    setSaving(false);
    if (result.ok) {
      await mutate({ profile: result.data.profile }, { revalidate: false });
      const next = valuesOf(result.data.profile, activityNames);
      setBase(next);
      setValues(next);
      setErrors({});
      const warnings = result.data.warnings ?? {};
      if (body.activities) {
        const unmatched = Array.isArray(warnings.activities_unmatched)
          ? (warnings.activities_unmatched as string[])
          : [];
        setRenamed([...renamedNow, ...serverRenamings(sending.activities, next.activities, unmatched, lookup)]);
      }
      const details = warningLines(warnings, activityNames);
      setStatus(details.length > 0 ? { tone: 'warn', title: 'Your profile is saved.', details } : null);
      setSaved('Saved');
    } else if (result.error.fields) {
      setErrors(errorsByField(result.error.fields));
      // A refusal that is not a fix-this-field (e.g. moving too often: 429) says itself what to do.
      const title =
        result.error.code === 'validation_failed' ? 'Please fix the fields marked below.' : result.error.message;
      setStatus({ tone: 'error', title, details: [], listFields: result.error.code === 'validation_failed' });
      summary.after();
    } else {
      setErrors({});
      setStatus({ tone: 'error', title: result.error.message, details: [] });
      summary.after();
    }
  }

  return {
    profile,
    mutate,
    values,
    errors,
    status,
    saving,
    draft,
    setDraft,
    renamed,
    setRenamed,
    lookup,
    names,
    saved,
    summary,
    edited,
    stale,
    city,
    birthdayText,
    changedText,
    set,
    save,
  };
}
