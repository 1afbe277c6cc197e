// Signs a page in through the product's sign-in form, as a user would.
export async function signInPage(page, base, user) {
  await page.goto(`${base}/login`);
  await page.getByLabel(/^username/i).fill(user.username);
  await page.getByLabel(/^password/i).fill(user.password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
}
