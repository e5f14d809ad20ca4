/**
 * What a click's User-Agent says: device class, browser, OS, and whether a robot sent it.
 * ua-parser-js 1.x (MIT; 2.x is AGPL) reads browsers and devices, isbot (Unlicense) keeps the
 * maintained list of crawlers, link unfurlers and HTTP libraries.
 */
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'bot';

export interface UserAgentInfo {
  device: DeviceType;
  browser: string | null;
  os: string | null;
  isBot: boolean;
}

/** Long enough for any real browser; bounds the regex work a hostile header can cause. */
export const MAX_USER_AGENT_LENGTH = 512;

// Robots isbot lets through: page-speed and uptime probes that drive a real browser.
const MORE_BOTS = /\bLighthouse\b|\bGTmetrix\b/i;

export function isBotUserAgent(userAgent: string): boolean {
  return isbot(userAgent) || MORE_BOTS.test(userAgent);
}

function deviceOf(type: string | undefined): Exclude<DeviceType, 'bot'> {
  if (type === 'tablet') return 'tablet';
  if (type === 'mobile' || type === 'wearable') return 'mobile';
  // No type (a computer), or a big screen: TV, console, car, headset.
  return 'desktop';
}

/**
 * A missing User-Agent counts as a robot: every browser sends one, scripts often do not.
 */
export function parseUserAgent(header: string | null | undefined): UserAgentInfo {
  const userAgent = (header ?? '').trim().slice(0, MAX_USER_AGENT_LENGTH);
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const isBot = userAgent === '' || isBotUserAgent(userAgent);
  return {
    device: isBot ? 'bot' : deviceOf(device.type),
    browser: browser.name ?? null,
    os: os.name ?? null,
    isBot,
  };
}
