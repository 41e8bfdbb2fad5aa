import { describe, expect, it } from 'vitest';
import type { Language } from '@shared/constants';
import { digestEmail, notificationText } from './digest';

// The digest's words come from the shared translator: plural forms by Intl.PluralRules, asserted
// here on the text the recipient reads, for a count of 1 and of 3 in both languages.
const links = { action: 'https://x.test/n', settings: 'https://x.test/s' };
const line = { text: 'Bruno liked your post', link: 'https://x.test/p/1' };

function digest(lang: Language, lines: number, more: number) {
  const mail = digestEmail(
    lang,
    { email: 'anna@example.com', name: 'Anna' },
    Array.from({ length: lines }, () => line),
    more,
    links,
  );
  const [greeting, intro, quote] = mail.text.split('\n\n');
  return { subject: mail.subject, greeting, intro, last: quote.split('\n').at(-1) };
}

/** What a reader sees for counts of 1 and 3, in each language. */
const words = {
  it: {
    one: {
      subject: 'Hai una nuova notifica su Scaffale',
      greeting: 'Ciao Anna,',
      intro: "Ecco cosa è successo su Scaffale dall'ultima volta che ti abbiamo scritto:",
    },
    three: {
      subject: 'Hai 3 nuove notifiche su Scaffale',
      intro: "Ecco le 3 novità su Scaffale dall'ultima volta che ti abbiamo scritto:",
    },
    more: ["…e un'altra", '…e altre 3'],
  },
  en: {
    one: {
      subject: 'You have a new notification on Scaffale',
      greeting: 'Hello Anna,',
      intro: 'Here is what happened on Scaffale since we last wrote:',
    },
    three: {
      subject: 'You have 3 new notifications on Scaffale',
      intro: 'Here are the 3 things that happened on Scaffale since we last wrote:',
    },
    more: ['…and one more', '…and 3 more'],
  },
} as const;

describe('the notification digest e-mail', () => {
  for (const lang of ['it', 'en'] as const) {
    it(`counts one and three notifications (${lang})`, () => {
      expect(digest(lang, 1, 0)).toEqual({ ...words[lang].one, last: `  ${line.link}` });
      expect(digest(lang, 3, 0)).toMatchObject(words[lang].three);
      expect([digest(lang, 1, 1).last, digest(lang, 1, 3).last]).toEqual(words[lang].more);
    });
  }

  it('words a notification with one and three other members as the bell does', () => {
    const comment = (lang: Language, actorCount: number) =>
      notificationText(lang, {
        type: 'community.comment',
        actorName: 'Anna',
        actorCount,
        data: {},
      });
    expect([comment('it', 1), comment('it', 2), comment('it', 4)]).toEqual([
      'Anna ha commentato il tuo post',
      "Anna e un'altra persona hanno commentato il tuo post",
      'Anna e altre 3 persone hanno commentato il tuo post',
    ]);
    expect([comment('en', 1), comment('en', 2), comment('en', 4)]).toEqual([
      'Anna commented on your post',
      'Anna and 1 other commented on your post',
      'Anna and 3 others commented on your post',
    ]);
  });

  it('writes an offer’s money in the recipient’s language', () => {
    const offer = (lang: Language) =>
      digestEmail(
        lang,
        { email: 'anna@example.com', name: 'Anna' },
        [
          {
            text: notificationText(lang, {
              type: 'offer.received',
              actorName: 'Bruno',
              actorCount: 1,
              data: { amount: 7.5, currency: 'EUR', title: 'Marcovaldo' },
            }),
            link: line.link,
          },
        ],
        0,
        links,
      ).text;
    expect(offer('it')).toContain('• Bruno ha offerto 7,50\u00a0€ per «Marcovaldo»');
    expect(offer('en')).toContain('• Bruno offered €7.50 for “Marcovaldo”');
  });
});
