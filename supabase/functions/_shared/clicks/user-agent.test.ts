import assert from 'node:assert/strict';
import { MAX_USER_AGENT_LENGTH, parseUserAgent, type UserAgentInfo } from './user-agent.ts';

const browsers: [string, UserAgentInfo][] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    { device: 'desktop', browser: 'Chrome', os: 'Windows', isBot: false },
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
    { device: 'desktop', browser: 'Edge', os: 'Windows', isBot: false },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
    { device: 'desktop', browser: 'Safari', os: 'Mac OS', isBot: false },
  ],
  [
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
    { device: 'desktop', browser: 'Firefox', os: 'Ubuntu', isBot: false },
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
    { device: 'mobile', browser: 'Chrome', os: 'Android', isBot: false },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
    { device: 'mobile', browser: 'Chrome', os: 'iOS', isBot: false },
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
    { device: 'mobile', browser: 'Samsung Internet', os: 'Android', isBot: false },
  ],
  [
    // Facebook's in-app browser is a person, not its link unfurler.
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.33.116;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.1]',
    { device: 'mobile', browser: 'Facebook', os: 'iOS', isBot: false },
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    { device: 'tablet', browser: 'Mobile Safari', os: 'iOS', isBot: false },
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    { device: 'tablet', browser: 'Chrome', os: 'Android', isBot: false },
  ],
  [
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
    { device: 'desktop', browser: 'Samsung Internet', os: 'Tizen', isBot: false },
  ],
];

Deno.test('reads device, browser and OS from real browsers', () => {
  for (const [userAgent, expected] of browsers)
    assert.deepEqual(parseUserAgent(userAgent), expected, userAgent);
});

const robots = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  'Mozilla/5.0 (compatible; GPTBot/1.0; +https://openai.com/gptbot)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'WhatsApp/2.23.20.0 A',
  'TelegramBot (like TwitterBot)',
  'curl/8.4.0',
  'Wget/1.21',
  'python-requests/2.31.0',
  'Go-http-client/1.1',
  'axios/1.6.2',
  'okhttp/4.9.0',
  'PostmanRuntime/7.36.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Lighthouse', // not on isbot's list
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 GTmetrix', // nor this
];

Deno.test('flags crawlers, link unfurlers, HTTP libraries and headless browsers as bots', () => {
  for (const userAgent of robots) {
    const info = parseUserAgent(userAgent);
    assert.equal(info.isBot, true, userAgent);
    assert.equal(info.device, 'bot', userAgent);
  }
});

Deno.test('a bot keeps the browser and OS it claims', () => {
  assert.deepEqual(
    parseUserAgent(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    ),
    { device: 'bot', browser: 'Chrome Headless', os: 'Linux', isBot: true },
  );
});

Deno.test('a missing User-Agent is a bot with nothing else known', () => {
  for (const header of [null, undefined, '', '   '])
    assert.deepEqual(parseUserAgent(header), {
      device: 'bot',
      browser: null,
      os: null,
      isBot: true,
    });
});

Deno.test('only the first 512 characters are read, fast, whatever follows', () => {
  const chrome = browsers[0]![0];
  const padded = chrome + ' x'.repeat(100_000) + ' Googlebot/2.1';
  const started = performance.now();
  const info = parseUserAgent(padded);
  assert.ok(performance.now() - started < 250, 'no pathological regex work');
  assert.equal(chrome.length < MAX_USER_AGENT_LENGTH, true);
  assert.deepEqual(info, { device: 'desktop', browser: 'Chrome', os: 'Windows', isBot: false });
});
