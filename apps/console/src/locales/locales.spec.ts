// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, localeMessages, SUPPORTED_LOCALES } from './index';

type Tree = { [key: string]: string | Tree };

/** Every key path of a message tree, with the type of what is there. */
function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const result = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null) {
      for (const [leaf, leafValue] of leaves(value, path)) result.set(leaf, leafValue);
    } else {
      result.set(path, value);
    }
  }
  return result;
}

const reference = leaves(localeMessages[DEFAULT_LOCALE]);

describe('locales', () => {
  it('zh-CN is the default and en-US the other', () => {
    expect(DEFAULT_LOCALE).toBe('zh-CN');
    expect([...SUPPORTED_LOCALES]).toEqual(['zh-CN', 'en-US']);
  });

  describe.each(SUPPORTED_LOCALES.filter((locale) => locale !== DEFAULT_LOCALE))('%s', (locale) => {
    const other = leaves(localeMessages[locale]);

    it('has every key of zh-CN', () => {
      expect([...reference.keys()].filter((key) => !other.has(key))).toEqual([]);
    });

    it('has no key zh-CN lacks', () => {
      expect([...other.keys()].filter((key) => !reference.has(key))).toEqual([]);
    });
  });

  it.each(SUPPORTED_LOCALES)('%s has a non-empty string for every key', (locale) => {
    const empty = [...leaves(localeMessages[locale])].filter(
      ([, value]) => typeof value !== 'string' || value.trim() === '',
    );
    expect(empty).toEqual([]);
  });

  it.each(SUPPORTED_LOCALES)('%s keeps the same {{placeholders}} as zh-CN', (locale) => {
    const placeholders = (text: unknown) =>
      String(text)
        .match(/\{\{\s*\w+\s*\}\}/g)
        ?.sort() ?? [];
    const other = leaves(localeMessages[locale]);
    const mismatched = [...reference].filter(
      ([key, text]) => placeholders(text).join() !== placeholders(other.get(key)).join(),
    );
    expect(mismatched).toEqual([]);
  });

  // Labels, titles and buttons read as words in a sentence start with a capital in English ("Query",
  // "Add"); the exceptions are the spec's own texts and fragments the console puts inside a sentence.
  const LOWERCASE_ALLOWED = [
    /^request\./, // spec §8 texts, kept exactly
    /^assets\.noun\./, // "Add {{noun}}", "Export {{noun}}"...
    /^billing\.version\.rule\./, // "closed by rule: {{rule}}"
    /^billing\.unit\./, // units: yuan/kW·h
  ];

  it('en-US starts every label with a capital letter', () => {
    const lowercase = [...leaves(localeMessages['en-US'])].filter(
      ([key, text]) => /^[a-z]/.test(String(text)) && !LOWERCASE_ALLOWED.some((allowed) => allowed.test(key)),
    );
    expect(lowercase).toEqual([]);
  });

  it('en-US has no Chinese text, zh-CN no label left in English', () => {
    const cjk = /[\u3400-\u9fff]/;
    const chineseInEnglish = [...leaves(localeMessages['en-US'])].filter(
      ([key, text]) => cjk.test(String(text)) && key !== 'locale.zhCN',
    );
    expect(chineseInEnglish).toEqual([]);
    // A zh-CN text made only of English words (and no placeholder or code) was left untranslated.
    const englishInChinese = [...reference].filter(([, text]) =>
      /^[A-Z]?[a-z]+(?: [a-z]+)+$/.test(String(text)),
    );
    expect(englishInChinese).toEqual([]);
  });

  it('en-US carries the spec texts exactly (spec §8)', () => {
    expect(localeMessages['en-US'].request).toEqual({
      sessionExpired: 'login status expired, please log in again',
      fileDownloadFailed: 'file download failed',
    });
    expect(localeMessages['en-US'].chunk.moduleNotFound).toBe('Cannot find module');
  });
});
