import { AppShell, Burger, Group, NavLink, SegmentedControl, Text, TextInput, ActionIcon, useMantineColorScheme, Title, Tooltip, Anchor } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMoon, IconSun, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { changeLanguage, type Language } from '../i18n';
import { useEnumLabel } from '../i18n/enum-labels';
import { SECTIONS } from './sections';
import { useSession } from './session';

export function Shell() {
  const { t, i18n } = useTranslation();
  const roleLabel = useEnumLabel();
  const [opened, { toggle }] = useDisclosure();
  const { me, can, tenant, setTenant } = useSession();
  const location = useLocation();
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  const active = (path: string) => (path === '/' ? location.pathname === '/' : location.pathname.startsWith(path));
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <Anchor href="#main" className="skip-link">{t('app.skip')}</Anchor>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <IconShieldLock size={24} aria-hidden />
            <Title order={1} size="h4">{t('app.title')}</Title>
            <Text c="dimmed" size="sm" visibleFrom="md">{t('app.subtitle')}</Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {me.is_super_admin && (
              <TextInput size="xs" aria-label={t('app.tenant')} placeholder={t('app.allTenants')} value={tenant} onChange={(e) => setTenant(e.currentTarget.value.trim())} w={150} />
            )}
            <Text size="sm" visibleFrom="md" data-testid="whoami">{t('app.signedInAs', { user: me.username, role: me.role ? roleLabel('role', me.role) : '—' })} · {me.tenant}</Text>
            <SegmentedControl size="xs" aria-label={t('app.language')} value={i18n.language} onChange={(value) => void changeLanguage(value as Language)} data={[{ value: 'en', label: 'EN' }, { value: 'ru', label: 'RU' }]} />
            <Tooltip label={t('app.theme')}>
              <ActionIcon variant="default" size="lg" onClick={toggleColorScheme} aria-label={t('app.theme')}>
                {colorScheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Sections">
        <nav>
          {SECTIONS.filter((s) => can(s.needs)).map((s) => (
            <NavLink key={s.path} component={Link} to={s.path} label={t(`nav.${s.label}`)} active={active(s.path)} onClick={() => opened && toggle()} />
          ))}
        </nav>
      </AppShell.Navbar>
      <AppShell.Main id="main">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
