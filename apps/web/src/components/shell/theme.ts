export type ThemePreference = 'light' | 'dark' | 'system';

const STORAGE_KEY = 'looplane-theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Runs in <head> before first paint: applies the stored preference (or the OS setting) as
 * `data-theme` on <html>, so a dark-mode user never sees a light flash.
 */
export const THEME_SCRIPT = `(function(){try{var p=localStorage.getItem(${JSON.stringify(STORAGE_KEY)});var d=p==='dark'||(p!=='light'&&matchMedia(${JSON.stringify(DARK_QUERY)}).matches);document.documentElement.dataset.theme=d?'dark':'light'}catch(e){}})()`;

const listeners = new Set<() => void>();

export function readThemePreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function systemPrefersDark(): boolean {
  return matchMedia(DARK_QUERY).matches;
}

/**
 * The toggle's cycle: from "system" first to the theme you do not have yet (so the first click
 * always changes something), then the other explicit theme, then back to following the OS.
 */
export function nextThemePreference(current: ThemePreference, systemDark: boolean): ThemePreference {
  const opposite = systemDark ? 'light' : 'dark';
  if (current === 'system') return opposite;
  return current === opposite ? (systemDark ? 'dark' : 'light') : 'system';
}

/** Applies the preference to <html> (resolving "system" through the media query). */
function applyTheme(preference: ThemePreference): void {
  const dark = preference === 'dark' || (preference === 'system' && systemPrefersDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function setThemePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, preference);
  } catch {
    // Storage unavailable (private mode): the choice still applies to this page.
  }
  applyTheme(preference);
  for (const listener of listeners) listener();
}

/** useSyncExternalStore subscription: preference changes here, in other tabs, or in the OS. */
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  const media = matchMedia(DARK_QUERY);
  const onSystem = () => {
    if (readThemePreference() === 'system') applyTheme('system');
    listener();
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    applyTheme(readThemePreference());
    listener();
  };
  media.addEventListener('change', onSystem);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    media.removeEventListener('change', onSystem);
    window.removeEventListener('storage', onStorage);
  };
}
