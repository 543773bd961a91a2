// Component tests render with React 19's own renderer (the alias in vite.config.ts): @testing-library/react
// and react-i18next are hoisted beside the root's React 18, so components are mounted with
// react-dom/client itself and get the console's texts through i18next without its React binding.
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { en } from '../i18n/en';
import { ru } from '../i18n/ru';

/** What a test's `vi.mock('react-i18next', …)` answers: `useTranslation` in `language` (English as the fallback). */
export async function reactI18next(language: 'en' | 'ru') {
  const i18n = (await import('i18next')).createInstance();
  await i18n.init({ lng: language, fallbackLng: 'en', interpolation: { escapeValue: false }, resources: { en: { translation: en }, ru: { translation: ru } } });
  return { useTranslation: () => ({ t: i18n.t.bind(i18n), i18n }) };
}

/** Mounts nodes inside Mantine's provider; `unmount` (a test's afterEach) removes the last one. */
export function testRenderer() {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  let root: Root | undefined;
  return {
    async render(node: ReactNode): Promise<HTMLElement> {
      const container = document.body.appendChild(document.createElement('div'));
      root = createRoot(container);
      await act(async () => root!.render(<MantineProvider>{node}</MantineProvider>));
      return container;
    },
    async unmount() {
      const mounted = root;
      root = undefined;
      if (mounted) await act(async () => mounted.unmount());
    },
  };
}
