export type DependencyHealth = { name: string; status: 'up' | 'down'; latencyMs?: number; error?: string };
export type HealthReport = {
  service: string;
  status: 'ok' | 'degraded' | 'down';
  version: string;
  uptimeSeconds: number;
  dependencies: DependencyHealth[];
};
