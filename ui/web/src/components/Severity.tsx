import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { CRITICAL: 'red', HIGH: 'orange', MEDIUM: 'yellow', LOW: 'blue', INFO: 'gray' };
const STATUS: Record<string, string> = { ACTIVE: 'green', DRAFT: 'gray', ARCHIVED: 'dark', HEALTHY: 'green', UNHEALTHY: 'red', UNKNOWN: 'gray', DEGRADED: 'orange', BLOCK: 'red', SANITIZE: 'orange', ALLOW: 'green', MONITOR_ONLY: 'grape' };

export function SeverityBadge({ value }: { value: string }) {
  return <Badge color={COLORS[value] ?? 'gray'} variant="filled" autoContrast>{value}</Badge>;
}

export function StatusBadge({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return <Badge color={STATUS[value] ?? 'gray'} variant="light">{value}</Badge>;
}
