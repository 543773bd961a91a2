import { Badge } from '@mantine/core';

// Shade 8 (and a light yellow with dark text) keep badge text above 4.5:1 (WCAG AA).
const COLORS: Record<string, string> = { CRITICAL: 'red.8', HIGH: 'orange.9', MEDIUM: 'yellow.3', LOW: 'blue.8', INFO: 'gray.7' };
const STATUS: Record<string, string> = { ACTIVE: 'green.9', DRAFT: 'gray.7', ARCHIVED: 'dark.6', HEALTHY: 'green.9', UNHEALTHY: 'red.8', UNKNOWN: 'gray.7', DEGRADED: 'orange.9', BLOCK: 'red.8', SANITIZE: 'orange.9', ALLOW: 'green.9', MONITOR_ONLY: 'grape.8' };

export function SeverityBadge({ value }: { value: string }) {
  return <Badge color={COLORS[value] ?? 'gray.7'} variant="filled" autoContrast>{value}</Badge>;
}

export function StatusBadge({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return <Badge color={STATUS[value] ?? 'gray.7'} variant="filled" autoContrast>{value}</Badge>;
}
