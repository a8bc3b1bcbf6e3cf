import { Button, DatePicker, theme } from 'antd';
import dayjs from 'dayjs';
import { act, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Locale } from '../../locales';
import { memoryStorage } from '../../test/memoryStorage';
import { render, waitFor, type Rendered } from '../../test/render';
import type { CityCode } from '@voltdepot/shared-contracts';
import { DEFAULT_PLATFORM_SETTINGS } from '../platform/platformSettings';
import { AppProviders } from './AppProviders';
import { createI18n } from './i18n';
import { createQueryClient } from './queryClient';

let rendered: Rendered | undefined;
afterEach(() => {
  rendered?.unmount();
  rendered = undefined;
  document.body.innerHTML = '';
});

function PrimaryProbe() {
  const { token } = theme.useToken();
  return (
    <>
      <span data-testid="primary">{token.colorPrimary}</span>
      <Button type="primary">go</Button>
    </>
  );
}

async function renderWith(children: ReactNode, locale: Locale, cityCode?: CityCode) {
  const i18n = createI18n({ locale, storage: memoryStorage() });
  rendered = await render(
    <AppProviders
      i18n={i18n}
      queryClient={createQueryClient()}
      platform={{ ...DEFAULT_PLATFORM_SETTINGS, cityCode }}
    >
      {children}
    </AppProviders>,
  );
  return { i18n, container: rendered.container };
}

/** All CSS antd's css-in-js wrote into the document. */
const documentCss = () =>
  [...document.querySelectorAll('style')].map((style) => style.textContent ?? '').join('\n');

describe('theme colour by city code (spec §2)', () => {
  it.each([
    ['hefei', '#13a8a8'],
    ['tm166', '#d4380d'],
    ['fz', '#1677ff'],
    [undefined, '#1677ff'],
  ] as const)('%s: antd primary colour %s, used by a primary button', async (cityCode, colour) => {
    const { container } = await renderWith(<PrimaryProbe />, 'zh-CN', cityCode);
    expect(container.querySelector('[data-testid="primary"]')?.textContent).toBe(colour);
    expect(documentCss().toLowerCase()).toContain(`background:${colour}`);
  });
});

describe('dayjs follows the language', () => {
  it('zh-CN -> zh-cn, switching to en-US -> en, and the DatePicker shows the names of the language', async () => {
    const { i18n } = await renderWith(<DatePicker open defaultPickerValue={dayjs('2025-03-01')} />, 'zh-CN');
    expect(dayjs.locale()).toBe('zh-cn');
    expect(dayjs('2025-03-01').format('MMMM dddd')).toBe('三月 星期六');
    const weekHeader = () =>
      [...document.querySelectorAll('.ant-picker-content thead th')].map((th) => th.textContent);
    await waitFor(() => expect(weekHeader()).toEqual(['一', '二', '三', '四', '五', '六', '日']));

    await act(async () => {
      await i18n.changeLanguage('en-US');
    });
    expect(dayjs.locale()).toBe('en');
    expect(dayjs('2025-03-01').format('MMMM dddd')).toBe('March Saturday');
    await waitFor(() => expect(weekHeader()).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']));
  });
});
