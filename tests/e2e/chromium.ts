/**
 * Finds a Chromium for Playwright: $STEPWISE_CHROMIUM, then Debian's /usr/bin/chromium, then an
 * installed Chrome. Never downloads one. Throws with install instructions when none is found.
 */
import { existsSync } from 'node:fs';

const candidates = [
  process.env.STEPWISE_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
].filter((p): p is string => !!p);

export function chromiumPath(): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
        'or point STEPWISE_CHROMIUM at a Chrome/Chromium binary.',
    );
  }
  return found;
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
