import { test, expect, chooseLanguage, expectFitsWidth, uniqueWord } from './fixtures';
import { grantAdmin, openMember } from './members';

/**
 * The safety loop closes for the reporter: a member reading in Italian on a phone reports a
 * listing; an admin reviews it and keeps it (dismisses the report); the reporter's bell counts
 * the outcome and their notifications say, in Italian, that the listing was reviewed and stays
 * visible, without naming the moderator. (safety.spec.ts walks the removal in English.)
 */
test.describe.configure({ timeout: 150_000 });

test('a reporter is told the outcome after an admin decides (it, 375 px)', async ({ browser }) => {
  const seller = await openMember(browser);
  const reporter = await openMember(browser);
  const admin = await openMember(browser);
  try {
    const title = `Il cavaliere inesistente ${uniqueWord('')}`;
    const created = await seller.page.request.post('/api/listings', {
      headers: { origin: new URL(seller.page.url()).origin },
      data: { mode: 'quickSell', title, author: 'Italo Calvino', price: 6 },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // The reporter reads in Italian on a phone and reports the listing from its page.
    const r = reporter.page;
    await chooseLanguage(r, 'it');
    await expect(r.locator('html')).toHaveAttribute('lang', 'it');
    await r.setViewportSize({ width: 375, height: 800 });
    await r.goto(`/library/book/${id}`);
    await expect(r.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await r.getByRole('button', { name: 'Segnala questo annuncio' }).click();
    const dialog = r.getByRole('dialog', { name: 'Segnala questo annuncio' });
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByRole('button', { name: 'Invia segnalazione' }).click();
    await expect(
      r.getByText('Grazie: la tua segnalazione è stata inviata ai moderatori.'),
    ).toBeVisible();
    await r.goto(`/profile/${reporter.id}/dashboard`);
    const bell = r.getByRole('button', { name: /^Notifiche/ });
    await expect(bell).toHaveAccessibleName('Notifiche');

    // An admin reviews it and keeps it.
    expect(grantAdmin(admin.email)).toContain(`${admin.email} is now an admin.`);
    const a = admin.page;
    await a.goto('/admin');
    const entry = a.getByTestId('queue-entry').filter({ hasText: title });
    await expect(entry).toContainText('1 report');
    await entry.getByRole('button', { name: 'Dismiss' }).click();
    const decide = a.getByRole('dialog', { name: 'Dismiss the reports' });
    await decide.getByLabel('Reason').fill('A real copy, fairly priced.');
    await decide.getByRole('button', { name: 'Confirm' }).click();
    await expect(decide).toHaveCount(0);
    await expect(a.getByTestId('queue-entry').filter({ hasText: title })).toHaveCount(0);

    // The reporter's bell counts it live; the notification says what was decided, in Italian.
    await expect(bell).toHaveAccessibleName(/^Notifiche, 1/);
    await r.goto(`/profile/${reporter.id}/notifications`);
    const told = r.getByRole('main').getByText('I moderatori hanno esaminato la tua segnalazione');
    await expect(told).toContainText(
      `«${title} — Italo Calvino» e hanno lasciato visibile il contenuto: non viola le regole.`,
    );
    await expect(told).not.toContainText(admin.name);
    await expectFitsWidth(r, 375);
  } finally {
    for (const m of [seller, reporter, admin]) await m.context.close();
  }
});
