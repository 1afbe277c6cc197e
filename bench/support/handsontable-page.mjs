// A Chromium page holding Handsontable and `entry` (an ES module's text, bundled here with the
// esbuild mfe-sheets' tsx brings, so it may import handsontable and mfe-sheets' own sources): for
// benches that time the grid's own work in a real browser without the product around it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fromRoot } from '../../scripts/lib/paths.mjs';
import { launchChromium } from './chromium.mjs';

const requireSheets = createRequire(fromRoot('mfe-sheets', 'package.json'));
const esbuild = createRequire(requireSheets.resolve('tsx'))('esbuild');
const hotDir = fromRoot('mfe-sheets', 'node_modules', 'handsontable');

/** Chromium with one 1,280 × 900 page holding Handsontable's styles and `entry` bundled; close the browser when done. */
export async function handsontablePage(entry) {
  const { outputFiles } = await esbuild.build({
    stdin: { contents: entry, resolveDir: fromRoot('mfe-sheets'), loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    nodePaths: [fromRoot('mfe-sheets', 'node_modules')],
    logLevel: 'error',
  });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addStyleTag({ path: path.join(hotDir, 'styles/handsontable.min.css') });
  await page.addStyleTag({ path: path.join(hotDir, 'styles/ht-theme-main.min.css') });
  await page.addScriptTag({ content: outputFiles[0].text });
  return { browser, page };
}
