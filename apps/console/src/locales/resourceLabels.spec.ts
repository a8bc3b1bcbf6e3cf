// @vitest-environment node
import { SEEDED_RESOURCE_CODES } from '@voltdepot/shared-contracts';
import { describe, expect, it } from 'vitest';
import { resourceLabel } from '../app/layout/menuEntries';
import { createI18n } from '../app/providers/i18n';
import { memoryStorage } from '../test/memoryStorage';
import { SUPPORTED_LOCALES } from './index';

const CJK = /[\u3400-\u9fff]/;
const STORED = 'stored name';

// Every resource the migrations seed (the list is checked against a migrated database by
// seeded-resources.int-spec.ts) has its own label in both languages: the console never falls back to the
// stored (English) name for one of them, nor to the other language.
describe.each(SUPPORTED_LOCALES)('seeded resource labels in %s', (locale) => {
  const i18n = createI18n({ locale, storage: memoryStorage() });
  const labels = SEEDED_RESOURCE_CODES.map((code) => ({
    code,
    own: i18n.getResource(locale, 'translation', `menu.${code.replaceAll(':', '_')}`) as unknown,
    shown: resourceLabel({ code, name: STORED }, i18n),
  }));

  it('covers the menus and the buttons', () => {
    expect(labels.length).toBeGreaterThan(300);
    expect(labels.map((l) => l.code)).toEqual(
      expect.arrayContaining(['sys:user', 'sys:user:add', 'go_screen']),
    );
  });

  it('has a label of its own for every seeded resource', () => {
    expect(labels.filter((l) => typeof l.own !== 'string' || l.own.trim() === '').map((l) => l.code)).toEqual(
      [],
    );
  });

  it('shows that label instead of the stored name', () => {
    expect(labels.filter((l) => l.shown !== l.own).map((l) => l.code)).toEqual([]);
  });

  it(locale === 'zh-CN' ? 'writes every label in Chinese' : 'writes no label in Chinese', () => {
    const wrong = labels.filter((l) => CJK.test(String(l.own)) !== (locale === 'zh-CN'));
    expect(wrong.map((l) => `${l.code}: ${String(l.own)}`)).toEqual([]);
  });

  it('shows the stored name of a resource an administrator created', () => {
    expect(resourceLabel({ code: 'custom:report42', name: '自定义报表' }, i18n)).toBe('自定义报表');
  });
});
