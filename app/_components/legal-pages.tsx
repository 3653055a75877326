import type { ReactNode } from 'react';
import type { LegalFacts } from '@/lib/legal/facts';
import { LEGAL_PATHS } from '@/lib/web/legal-paths';

// /privacy and /terms (issue 47): written for people, and true to what the code does. Every
// period comes from facts.retention (lib/legal/retention.ts), never typed here; the API test
// fails on a period in the text that the table does not hold. Rendered to static HTML by
// server/doors/legal.tsx: nothing here needs JavaScript.

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Contact({ facts }: { facts: LegalFacts }) {
  return <a href={`mailto:${facts.contactEmail}`}>{facts.contactEmail}</a>;
}

export function PrivacyPage({ facts }: { facts: LegalFacts }) {
  const { period, rows } = facts.retention;
  const km = facts.displacementKm;
  return (
    <article className="narrow stack legal">
      <h1>Privacy policy</h1>
      <p className="lead">
        Buddy Match helps you find people to do things with, yourself or through your AI assistant. This page says what
        it stores about you, who can see it, how long it is kept, and how to download or delete it. It describes what
        this service actually does. Questions: <Contact facts={facts} />.
      </p>

      <Section id="stored" title="What we store, and why">
        <ul>
          <li>
            <strong>Your account</strong>: your email address and a password. The password is kept only as a one-way
            hash, and sign-in links and assistant tokens only as hashes, so nobody can read them back. We use your email
            to sign you in and to send you mail you can turn off in Settings (reminders, check-ins, digests).
          </li>
          <li>
            <strong>Your profile</strong>: your name, photo, a few words about you, gender if you give it, your
            birthday, your activities, when you are usually free, your place and time zone. This is what lets us find
            you buddies.
          </li>
          <li>
            <strong>Where you are</strong>: the place you name and a point on the map. Your exact point is private.
            Everything others see (distances, the city shown, search results) is worked out from a second point,{' '}
            {km.min}–{km.max} km away from yours and fixed, so nobody can pin you down more finely than that. Assistants
            you connect with OAuth see only that second point. If you sign up through an assistant that passes us its
            rough location (a city, never a point) and you name no place, we use that city and say so in the answer, and
            you can change it.
          </li>
          <li>
            <strong>Photos</strong>: your photo and a small copy, stored{' '}
            {facts.photosIn === 'vercel-blob' ? 'with Vercel Blob, a storage service' : 'on the service’s own server'}.
            A photo you replace or remove is deleted.
          </li>
          <li>
            <strong>What you do here</strong>: buddy requests and their notes, chats and messages, plans (what, when,
            where, a note), meetups you host or join, blocks, reports, and your private “Did you meet?” answers.
          </li>
          <li>
            <strong>Safety</strong>: when you share a plan or meetup with a trusted contact, their email address and
            whether you answered “All good?”.
          </li>
          <li>
            <strong>Notifications</strong>: the address your browser or phone gives us for notifications, your mail
            settings, and your private calendar feed (its secret link is stored only as a hash).
          </li>
          <li>
            <strong>Your assistants</strong>: each assistant you connected (its name, what it may do, when it was
            connected and last used), and a record of what it did for you, so you can check it.
          </li>
          <li>
            <strong>Security records</strong>: your web sign-ins, wrong passwords and sign-in link requests (the email
            typed and the network address), the network address an account was created from, counters that enforce
            limits, and the stored answer to a request an assistant may retry. They stop abuse and keep accounts from
            being taken over.
          </li>
          <li>
            <strong>Server logs</strong>: for each request, the time, the path (with secret parts such as sign-in tokens
            removed), the result and how long it took.
          </li>
        </ul>
        <p>
          Everything is kept in one PostgreSQL database run for this service, except photos (above) and logs (written by
          the server where it runs). There is no advertising and no tracking code on the site, and we do not sell your
          data.
        </p>
      </Section>

      <Section id="others" title="Services we pass data to">
        <ul>
          <li>
            <strong>Mail</strong>:{' '}
            {facts.mailServer
              ? 'mails to you and to a trusted contact go out through the operator’s mail server.'
              : 'no mail server is set up on this instance, so mails are kept as files on the server instead of being sent.'}
          </li>
          <li>
            <strong>Browser notifications</strong>, if you turn them on, go through your browser’s push service (Google,
            Mozilla, Apple or Microsoft), encrypted so that service cannot read them. It may hold one your device has
            not fetched for {period('web_push_held')}.
          </li>
          {facts.appPushThroughExpo ? (
            <li>
              <strong>Phone app notifications</strong> go through Expo’s push service, with a short preview of the
              message.
            </li>
          ) : null}
          {facts.photosCheckedByGoogle ? (
            <li>
              <strong>Photos</strong> are checked by Google Cloud Vision for unsafe content before others see them.
            </li>
          ) : null}
          {facts.geocoder ? (
            <li>
              <strong>Places</strong> our own list does not know are looked up at {facts.geocoder}: only the place name
              you typed is sent.
            </li>
          ) : null}
          <li>
            <strong>Your assistant</strong>: what your assistant reads from Buddy Match (your profile, requests,
            messages) goes to the company that runs it, under its own privacy policy.
          </li>
        </ul>
      </Section>

      <Section id="who-sees" title="Who can see what">
        <ul>
          <li>
            <strong>Anyone on the internet</strong>, on your public profile page: your first name, photo, city, the
            words about you and your activities. Not your age, gender or free time.{' '}
            {facts.requirePersonConsent
              ? 'A profile your assistant made is shown to nobody until you say “Yes, show me to people nearby” on the web.'
              : null}
          </li>
          <li>
            <strong>Signed-in members</strong>: also your full name, age (or only the decade, if you choose), gender,
            when you are free (to show when you are both free) and roughly how far away you are. Only complete profiles
            show up in searches.
          </li>
          <li>
            <strong>Your buddies</strong> (people whose request you accepted, or who accepted yours): your messages and
            the plans you make together. People at a meetup you join see your first name and photo, and the meetup’s
            group chat.
          </li>
          <li>
            <strong>Nobody else</strong> ever sees your email address, your birthday (only your age) or your exact
            place.
          </li>
          <li>
            <strong>Blocking</strong> someone stops requests and messages between you and takes them out of your lists;
            they are not told.
          </li>
        </ul>
        <h3>Teenagers</h3>
        <p>
          You must be at least {facts.minimumAge} to sign up. People under 18 and adults never find or reach each other:
          not in searches, requests, profiles, plans or meetups. Two people under 18 can find each other only when they
          are at most {facts.teenGapYears} years apart. The profile page of someone under 18 is not public: signed out,
          nobody sees it, and search engines do not get it.
        </p>
      </Section>

      <Section id="assistants" title="What your assistant can and cannot do">
        <p>
          An assistant (ChatGPT, Claude or another AI agent) connects with a key from sign-up, or with your approval
          through OAuth. It can then do what you could do in the app, within what you approved: edit your profile and
          photo, search, send and answer buddy requests, chat, and make plans. What it sends is labelled with its name.
        </p>
        <p>It cannot:</p>
        <ul>
          <li>delete your account without your password;</li>
          <li>
            share a plan with a trusted contact, answer “All good?”, answer “Did you meet?” or get your calendar link;
          </li>
          {facts.requirePersonConsent ? <li>show your profile to people before you say yes on the web;</li> : null}
          <li>see your exact place, when it connected through OAuth.</li>
        </ul>
        {facts.personTapsInViews ? (
          <p>
            In ChatGPT, Claude and other apps that show Buddy Match’s own buttons, a first buddy request, your first
            message in a chat and accepting a plan wait for you to tap Send or Accept. That button works for{' '}
            {period('person_confirmation')}.
          </p>
        ) : null}
        <p>
          You see every connected assistant, and what it did, under <a href="/account/agents">Connected assistants</a>,
          and can disconnect any of them at once.
        </p>
      </Section>

      <Section id="how-long" title="How long we keep things">
        <p>
          Your profile, photo, messages and plans are kept until you change or delete them, or delete your account.
          Everything else is kept only as long as the table says. Server logs are kept as long as the operator’s hosting
          keeps them.
        </p>
        <table className="table-fit">
          <caption className="visually-hidden">How long each thing lasts</caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">How long</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{row.what}</td>
                <td>{row.words}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="your-data" title="See, download or delete your data">
        <ul>
          <li>
            <strong>See and change</strong> your profile at <a href="/account/profile">your profile</a>.
          </li>
          <li>
            <strong>Download</strong> everything we hold about you, as one file: in{' '}
            <a href="/account/settings">Settings</a>, under Your data, “Download my data”. It has your profile, photos,
            requests, chats, plans and what your assistants did.
          </li>
          <li>
            <strong>Delete your account</strong> in Settings, under Your data: with your password, or without it within{' '}
            {period('fresh_signin')} of signing in. It happens at once and cannot be undone.
          </li>
        </ul>
        <p>Deleting your account:</p>
        <ul>
          <li>
            wipes your name, photo, email, place, birthday, about text, activities and free time, and deletes the photo
            files;
          </li>
          <li>
            deletes your buddy requests, blocks, assistant connections and their record, sign-in links, notification
            addresses, calendar feed, shared plan pages, “Did you meet?” answers and mail settings;
          </li>
          <li>cancels your plans and the meetups you host, and signs you out everywhere.</li>
        </ul>
        <p>
          What stays: your messages in other people’s chats, shown as from “a deleted member” (the conversation is
          theirs too), reports made by or about you, for moderation, and an empty placeholder so those still make sense.
          Your email address is free to sign up again.
        </p>
        <p>
          If someone signed you up without asking, the “This wasn’t me” link in the mail we sent you disables that
          account at once.
        </p>
      </Section>

      <Section id="contact" title="Contact">
        <p>
          Write to <Contact facts={facts} /> about your data, this policy or anything that worries you. See also the{' '}
          <a href={LEGAL_PATHS.terms}>terms of use</a>.
        </p>
      </Section>
    </article>
  );
}

export function TermsPage({ facts }: { facts: LegalFacts }) {
  const { period } = facts.retention;
  return (
    <article className="narrow stack legal">
      <h1>Terms of use</h1>
      <p className="lead">
        These are the rules for using Buddy Match at {facts.site}. By creating an account, yourself or through your
        assistant, you agree to them. How we handle your data is in the <a href={LEGAL_PATHS.privacy}>privacy policy</a>
        .
      </p>

      <Section id="who" title="Who may use it">
        <ul>
          <li>You must be at least {facts.minimumAge}.</li>
          <li>
            Sign up only with your own email address, with your real age, and with a photo of yourself. The owner of an
            address can disable an account made with it.
          </li>
          <li>
            People under 18 and adults are kept apart: they never find or reach each other here. Do not try to get
            around it.
          </li>
        </ul>
      </Section>

      <Section id="conduct" title="Be decent">
        <ul>
          <li>
            No harassment, threats, hate or sexual messages. Texts with slurs, threats or sexual solicitation are
            refused.
          </li>
          <li>No spam, no fake profiles, no pretending to be someone else.</li>
          <li>Do not send the same person messages they did not answer, again and again.</li>
          <li>Do not use the service to collect other people’s data, or to find where someone lives.</li>
          <li>Nothing illegal, and no photos that are not yours to share.</li>
        </ul>
        <p>
          If someone breaks these rules, <strong>block</strong> them (nothing more passes between you, and they are not
          told) and <strong>report</strong> them from their profile or your chat. Reports are kept for moderation. The
          operator may end an account that breaks these rules.
        </p>
      </Section>

      <Section id="meeting" title="Meeting people safely">
        <p>You are meeting strangers. Buddy Match does not check who people are. So:</p>
        <ul>
          <li>Meet in a public place, and get there and back on your own.</li>
          <li>
            <strong>Tell someone you trust</strong>: “Share with a friend” on a plan or meetup gives them a private page
            with what, when, where and with whom. It stops working {period('share_page')} after the end.
          </li>
          <li>
            <strong>Turn on check-in</strong>: {period('checkin_delay')} after the start we ask “All good?”. If you do
            not answer within {period('checkin_answer')}, your trusted contact gets one mail with the plan’s page. It
            needs a mail server, and is on by default for people under 18.
          </li>
          <li>Leave if you feel unsafe. In an emergency, call your local emergency number, not us.</li>
        </ul>
      </Section>

      <Section id="assistant" title="Your assistant acts for you">
        <p>
          When you connect an assistant, what it does here it does in your name: requests, messages and plans are yours,
          labelled with its name. Ask it to act only on what you asked for. You can see what each assistant did and
          disconnect it at any time under <a href="/account/agents">Connected assistants</a>. What it can and cannot do
          is in the <a href={`${LEGAL_PATHS.privacy}#assistants`}>privacy policy</a>.
        </p>
      </Section>

      <Section id="ending" title="Ending your account">
        <p>
          You can delete your account at any time in <a href="/account/settings">Settings</a>; the{' '}
          <a href={`${LEGAL_PATHS.privacy}#your-data`}>privacy policy</a> says what that removes. The operator may end
          an account that breaks these terms, and may change or stop the service.
        </p>
      </Section>

      <Section id="warranty" title="No warranty">
        <p>
          Buddy Match is provided as it is, without any warranty. We do our best to keep it working and safe, but we
          cannot promise that it always works, that the people you meet are who they say, or that matches suit you.
          Within what the law allows, we are not liable for what happens when you meet someone, or for what other people
          or their assistants send you.
        </p>
      </Section>

      <Section id="changes" title="Changes">
        <p>If these terms change, this page changes. Using the service after that means you accept the new terms.</p>
      </Section>

      <Section id="contact" title="Contact">
        <p>
          Write to <Contact facts={facts} />.
        </p>
      </Section>
    </article>
  );
}
