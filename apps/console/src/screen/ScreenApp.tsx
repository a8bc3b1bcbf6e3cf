import { useQuery } from '@tanstack/react-query';
import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import { useWindowSize } from '@voltdepot/console-ui';
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../app/format/formatDateTime';
import { TimeZoneHint } from '../app/format/TimeZoneHint';
import { useSystemTitle } from '../app/platform/PlatformSettingsContext';
import { request } from '../request';
import { SCREEN_TOTALS, type ScreenTotal } from './screenTotals';

/** The dashboard is drawn on a 1920 x 1080 canvas scaled to the window (resize throttled to 100 ms). */
const CANVAS = { width: 1920, height: 1080 };

const colors = {
  text: '#d6e4ff',
  dim: '#7f93b5',
  accent: '#3ee0ff',
  panel: 'rgba(16, 42, 86, 0.55)',
  line: '#1d4f91',
};

function Panel({ title, children, style }: { title: string; children: ReactNode; style?: CSSProperties }) {
  return (
    <section
      style={{
        background: colors.panel,
        border: `1px solid ${colors.line}`,
        borderRadius: 8,
        padding: 20,
        display: 'flex',
        flexDirection: 'column',
        ...style,
      }}
    >
      <h2 style={{ margin: '0 0 12px', fontSize: 22, color: colors.accent, fontWeight: 600 }}>{title}</h2>
      <div style={{ flex: 1, minHeight: 0 }}>{children}</div>
    </section>
  );
}

function Placeholder({ note }: { note: string }) {
  return (
    <div
      data-testid="screen-placeholder"
      style={{
        height: '100%',
        minHeight: 120,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        border: `1px dashed ${colors.line}`,
        borderRadius: 6,
        color: colors.dim,
        fontSize: 18,
        textAlign: 'center',
        padding: 12,
        boxSizing: 'border-box',
      }}
    >
      {note}
    </div>
  );
}

function Clock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // Business time (the zone the depot works in), whatever the zone of the screen's browser.
  return (
    <span>
      <time
        data-testid="screen-clock"
        dateTime={new Date(now).toISOString()}
        style={{ fontSize: 26, fontVariantNumeric: 'tabular-nums' }}
      >
        {formatDateTime(now)}
      </time>{' '}
      <TimeZoneHint />
    </span>
  );
}

function TotalTile({
  total,
  permissions,
}: {
  total: ScreenTotal;
  permissions: ReadonlySet<string> | undefined;
}) {
  const { t } = useTranslation();
  const { source } = total;
  const result = useQuery({
    queryKey: ['screen', 'total', total.key],
    queryFn: async ({ signal }) => (source ? ((await source.load(signal)) ?? null) : null),
    enabled: Boolean(source && permissions?.has(source.permission)),
    refetchInterval: 60_000,
  });
  let value: ReactNode;
  let note: string | undefined;
  if (!total.source) {
    value = '--';
    note = t('screen.noSource');
  } else if (permissions && !permissions.has(total.source.permission)) {
    value = '--';
    note = t('screen.noPermission');
  } else {
    value = result.data ?? '--';
  }
  return (
    <div
      data-testid={`screen-total-${total.key}`}
      style={{
        background: colors.panel,
        border: `1px ${note ? 'dashed' : 'solid'} ${colors.line}`,
        borderRadius: 8,
        padding: '18px 20px',
      }}
    >
      <div style={{ color: colors.dim, fontSize: 18 }}>{t(`screen.totals.${total.key}`)}</div>
      <div
        style={{ color: note ? colors.dim : colors.accent, fontSize: 44, fontWeight: 700, lineHeight: 1.3 }}
      >
        {value}
      </div>
      {note && <div style={{ color: colors.dim, fontSize: 14 }}>{note}</div>}
    </div>
  );
}

/** The big screen (spec §2, /screen/index.html): a full-screen frame with a clock and the depot totals. */
export function ScreenApp() {
  const { t } = useTranslation();
  const title = useSystemTitle();
  const { width, height } = useWindowSize();
  const scale = Math.min(width / CANVAS.width, height / CANVAS.height);
  const permissions = useQuery({
    queryKey: ['screen', 'permissions'],
    queryFn: async ({ signal }) =>
      new Set(
        (await request.get<ApiResponse<'CurrentUserController_permissions'>>(
          apiPath('CurrentUserController_permissions'),
          {
            signal,
          },
        )) ?? [],
      ),
    staleTime: Infinity,
  });
  useEffect(() => {
    document.title = `${title} · ${t('screen.title')}`;
  }, [title, t]);

  return (
    <div style={{ width: '100vw', height: '100vh', overflow: 'hidden', background: '#020b1c' }}>
      <main
        style={{
          width: CANVAS.width,
          height: CANVAS.height,
          transform: `scale(${scale})`,
          transformOrigin: '0 0',
          marginLeft: (width - CANVAS.width * scale) / 2,
          marginTop: (height - CANVAS.height * scale) / 2,
          color: colors.text,
          background: 'radial-gradient(ellipse at top, #0b2a5b 0%, #020b1c 70%)',
          display: 'grid',
          gridTemplateRows: '96px auto 1fr',
          gap: 20,
          padding: '0 32px 32px',
          boxSizing: 'border-box',
          fontFamily: '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", system-ui, sans-serif',
        }}
      >
        <header
          style={{
            display: 'grid',
            gridTemplateColumns: '1fr auto 1fr',
            alignItems: 'center',
            borderBottom: `2px solid ${colors.line}`,
          }}
        >
          <Clock />
          <h1 style={{ margin: 0, fontSize: 40, letterSpacing: 4, color: '#fff' }}>
            {title} · {t('screen.title')}
          </h1>
          <div style={{ justifySelf: 'end', color: colors.dim, fontSize: 18 }}>{t('screen.refreshNote')}</div>
        </header>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(8, 1fr)', gap: 16 }}>
          {SCREEN_TOTALS.map((total) => (
            <TotalTile key={total.key} total={total} permissions={permissions.data} />
          ))}
        </div>
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: '1fr 1.6fr 1fr',
            gridTemplateRows: '1fr 1fr',
            gap: 20,
            minHeight: 0,
          }}
        >
          <Panel title={t('screen.panels.stationRanking')}>
            <Placeholder note={t('screen.placeholder')} />
          </Panel>
          <Panel title={t('screen.panels.map')} style={{ gridRow: 'span 2' }}>
            <Placeholder note={t('screen.placeholder')} />
          </Panel>
          <Panel title={t('screen.panels.power')}>
            <Placeholder note={t('screen.placeholder')} />
          </Panel>
          <Panel title={t('screen.panels.energy')}>
            <Placeholder note={t('screen.placeholder')} />
          </Panel>
          <Panel title={t('screen.panels.alarms')}>
            <Placeholder note={t('screen.placeholder')} />
          </Panel>
        </div>
      </main>
    </div>
  );
}
