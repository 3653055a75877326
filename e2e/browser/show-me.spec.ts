// Issue 41 §2: the person's "Yes, show me to people nearby" on their account page. What only
// a browser shows: the notice where the sign-in link lands, the button working (a script
// calls the web app's endpoint with the session), and the page after it. The account is put
// in the state REQUIRE_PERSON_CONSENT leaves an assistant-made profile in; the API test
// (e2e/api/person-consent.test.ts) covers the switch itself, the hiding and the refusals.
import { baseUrl, completePerson, expect, expectAccessible, query, signIn, test } from './support';

test('the account page asks the person, and one tap shows their profile to people nearby', async ({
  page,
  request,
}) => {
  const user = await completePerson(request, 'Hanna Waiting');
  await query('update users set awaiting_person_consent = true where id = $1', [user.id]);
  expect((await page.request.get(user.profileUrl)).status()).toBe(404);

  await signIn(page, user.email);
  const notice = page.getByRole('region', { name: 'Nobody can see your profile yet' });
  await expect(notice).toContainText('An assistant made this profile for you');
  await expectAccessible(page);

  await notice.getByRole('button', { name: 'Yes, show me to people nearby' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Done:' })).toContainText(
    'people nearby can now find you in Discover',
  );
  expect(
    await query<{ awaiting_person_consent: boolean }>('select awaiting_person_consent from users where id = $1', [
      user.id,
    ]),
  ).toEqual([{ awaiting_person_consent: false }]);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Nobody can see your profile yet' })).toHaveCount(0);
  expect((await page.request.get(`${baseUrl()}/u/${user.slug}`)).status()).toBe(200);
});
