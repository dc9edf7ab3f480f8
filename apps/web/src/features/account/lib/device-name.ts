import Bowser from 'bowser';

export interface Device {
  /** "Chrome 131", or "Unknown browser". */
  browser: string;
  /** "Windows 10", "macOS Sonoma", "Android 14", or "unknown system". */
  system: string;
  kind: 'desktop' | 'mobile' | 'tablet' | 'other';
}

const major = (version: string | undefined) => version?.split('.')[0];

/** Browser and operating system of a sign-in, read from its user-agent string (bowser). */
export function describeDevice(userAgent: string | null | undefined): Device {
  if (!userAgent?.trim())
    return { browser: 'Unknown browser', system: 'unknown system', kind: 'other' };
  const { browser, os, platform } = Bowser.parse(userAgent);
  const browserName = browser.name
    ? [browser.name, major(browser.version)].filter(Boolean).join(' ')
    : 'Unknown browser';
  const osVersion = os.versionName ?? (os.name === 'Windows' ? undefined : major(os.version));
  const system = os.name ? [os.name, osVersion].filter(Boolean).join(' ') : 'unknown system';
  const kind =
    platform.type === 'desktop' || platform.type === 'mobile' || platform.type === 'tablet'
      ? platform.type
      : 'other';
  return { browser: browserName, system, kind };
}
