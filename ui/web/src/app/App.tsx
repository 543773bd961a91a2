import { lazy, Suspense, type ReactNode } from 'react';
import { Alert, Center, Loader, MantineProvider, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { ApiError } from '../api/client';
import { Dashboard } from '../pages/Dashboard';
import { SessionProvider, useMe } from './session';
import { Shell } from './Shell';

// The start page is in the first bundle; every other section loads when first opened.
const Events = lazy(() => import('../pages/Events').then((m) => ({ default: m.Events })));
const Trace = lazy(() => import('../pages/Trace').then((m) => ({ default: m.Trace })));
const Providers = lazy(() => import('../pages/resources/Providers').then((m) => ({ default: m.Providers })));
const Profiles = lazy(() => import('../pages/resources/Profiles').then((m) => ({ default: m.Profiles })));
const ContentPolicies = lazy(() => import('../pages/resources/ContentPolicies').then((m) => ({ default: m.ContentPolicies })));
const Exporters = lazy(() => import('../pages/resources/Exporters').then((m) => ({ default: m.Exporters })));
const Reports = lazy(() => import('../pages/Reports').then((m) => ({ default: m.Reports })));
const Users = lazy(() => import('../pages/Users').then((m) => ({ default: m.Users })));
const Retention = lazy(() => import('../pages/Retention').then((m) => ({ default: m.Retention })));
const AuditLog = lazy(() => import('../pages/AuditLog').then((m) => ({ default: m.AuditLog })));

// Shade 8 keeps white text on the primary colour above 4.5:1 (WCAG AA).
const theme = createTheme({ primaryColor: 'indigo', primaryShade: { light: 8, dark: 8 }, defaultRadius: 'sm' });
const colorSchemeManager = localStorageColorSchemeManager({ key: 'palisade.color-scheme' });

export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2 } } });
}

export function AppProviders({ children, client = createQueryClient() }: { children: ReactNode; client?: QueryClient }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <Notifications position="top-right" />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <Authenticated />
      </BrowserRouter>
    </AppProviders>
  );
}

const fallback = (
  <Center p="xl">
    <Loader aria-label="Loading" />
  </Center>
);

function Authenticated() {
  const { t } = useTranslation();
  const me = useMe();
  if (me.isPending) return fallback;
  if (me.error) {
    const noRole = me.error instanceof ApiError && me.error.status === 403;
    return (
      <Center p="xl">
        <Alert color="red" title={t('common.error')} maw={520} role="alert">
          {noRole ? t('app.noRole') : me.error.message}
        </Alert>
      </Center>
    );
  }
  return (
    <SessionProvider me={me.data}>
      <Routes>
        <Route element={<Shell />}>
          <Route index element={<Dashboard />} />
          <Route path="*" element={<Suspense fallback={fallback}><LazyRoutes /></Suspense>} />
        </Route>
      </Routes>
    </SessionProvider>
  );
}

function LazyRoutes() {
  return (
    <Routes>
      <Route path="events" element={<Events />} />
      <Route path="events/trace/:traceId" element={<Trace />} />
      <Route path="providers/*" element={<Providers />} />
      <Route path="profiles/*" element={<Profiles />} />
      <Route path="content-policies/*" element={<ContentPolicies />} />
      <Route path="exporters/*" element={<Exporters />} />
      <Route path="reports" element={<Reports />} />
      <Route path="users" element={<Users />} />
      <Route path="retention" element={<Retention />} />
      <Route path="audit-log" element={<AuditLog />} />
    </Routes>
  );
}
