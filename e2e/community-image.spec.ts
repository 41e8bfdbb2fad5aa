import { test, expect, expectAccessible, uniqueWord } from './fixtures';
import { createConfirmedMember, dismissCookieBanner, uniqueEmail } from './members';
import { pngBuffer } from './images';

/**
 * A member writes a post with a title, a type, tags and an image (uploaded through the listings'
 * cover pipeline, previewed, removable), at phone width and by keyboard where it matters; the
 * feed card shows the title as its heading, the type and tags as badges and the image.
 */
test.use({ locale: 'en-US', viewport: { width: 375, height: 800 } });

const ROSA = 'Il nome della rosa';

test('a member posts with a title, type, tags and an image, and the card shows them', async ({
  page,
}) => {
  const suffix = uniqueWord('');
  const TITLE = `Seven days in the abbey ${suffix}`;
  await page.goto('/');
  await dismissCookieBanner(page);
  const { id } = await createConfirmedMember(page, { email: uniqueEmail(`img_${suffix}`) });

  await page.goto('/community');
  await page.getByRole('button', { name: 'Create post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a post' });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('searchbox', { name: 'Book' }).fill(ROSA);
  await dialog
    .getByRole('list', { name: 'Books found' })
    .getByRole('button', { name: new RegExp(`^${ROSA}`) })
    .first()
    .click();
  await expect(dialog.getByTestId('picked-book')).toHaveText(ROSA);

  const title = dialog.getByRole('textbox', { name: 'Title (optional)' });
  await expect(title).toHaveAttribute('maxlength', '200');
  await title.fill(TITLE);
  // The type by keyboard.
  const type = dialog.getByRole('combobox', { name: 'Post type' });
  await type.focus();
  await type.selectOption('review');
  await expect(type).toHaveValue('review');
  await dialog.getByRole('textbox', { name: 'Your post' }).fill('Adso remembers everything.');
  await dialog
    .getByRole('textbox', { name: 'Tags (optional)' })
    .fill(' medieval , #mystery,, Medieval ');

  // The image: uploaded at once, previewed, removable, then chosen again.
  const file = dialog.locator('input[type=file]');
  await file.setInputFiles({
    name: 'abbey.png',
    mimeType: 'image/png',
    buffer: await pngBuffer(120, 180),
  });
  const preview = dialog.getByRole('img', { name: 'Preview of the post image' });
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', new RegExp(`^/uploads/covers/${id}/`));
  await dialog.getByRole('button', { name: 'Remove image' }).click();
  await expect(preview).toBeHidden();
  await file.setInputFiles({
    name: 'abbey.png',
    mimeType: 'image/png',
    buffer: await pngBuffer(120, 180),
  });
  await expect(preview).toBeVisible();
  await expectAccessible(page);
  // Nothing in the dialog is wider than the phone.
  const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);

  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/community/posts') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Publish' }).click();
  const res = await created;
  expect(res.status()).toBe(201);
  await expect(dialog).toBeHidden();

  // The card in the feed: title as the heading, the type and the tags as badges, the image.
  const card = page.getByRole('article', { name: TITLE });
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: TITLE })).toBeVisible();
  await expect(card.getByTestId('post-type')).toHaveText('Review');
  await expect(card.getByTestId('post-tag')).toHaveText(['#medieval', '#mystery']);
  const image = card.getByRole('img', { name: TITLE });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('loading', 'lazy');
  await expect(image).toHaveAttribute('width', /\d+/);
  await expect(image).toHaveAttribute('height', /\d+/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // The post page shows the same.
  await card.getByRole('link', { name: 'Open post' }).click();
  await expect(page.getByRole('heading', { level: 2, name: TITLE })).toBeVisible();
  await expect(page.getByRole('img', { name: TITLE })).toBeVisible();
  await expect(page.getByTestId('post-tag')).toHaveText(['#medieval', '#mystery']);
  await expectAccessible(page);
});
