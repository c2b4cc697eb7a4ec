import { expect, test } from '@playwright/test';

test('the playground page loads', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Protoplay' })).toBeVisible();
});
