import { fireEvent } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { KeyValueEditor } from './KeyValueEditor';
import type { KeyValuePair } from './keyValue';

function Harness({
  initial,
  onChange,
  disabled,
}: {
  initial: KeyValuePair[];
  onChange: (p: KeyValuePair[]) => void;
  disabled?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return (
    <KeyValueEditor
      value={value}
      disabled={disabled}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

async function mount(
  initial: KeyValuePair[] = [],
  options: { disabled?: boolean; locale?: 'zh-CN' | 'en-US' } = {},
) {
  const onChange = vi.fn();
  await renderInApp(<Harness initial={initial} onChange={onChange} disabled={options.disabled} />, {
    locale: options.locale,
  });
  return onChange;
}

const q = (testId: string) => document.querySelector(`[data-testid="${testId}"]`) as HTMLInputElement;
const type = (testId: string, value: string) => fireEvent.change(q(testId), { target: { value } });
const rows = () => [...document.querySelectorAll('[data-testid="kv-row"]')];
const rowValues = () =>
  rows().map((row) => [...row.querySelectorAll('input')].map((input) => (input as HTMLInputElement).value));

describe('key-value editor', () => {
  it("an empty key is not added: 'Key cannot be empty'", async () => {
    const onChange = await mount();
    type('kv-new-value', 'orphan');
    fireEvent.click(q('kv-add'));
    await waitFor(() => expect(q('kv-error')?.textContent).toBe('Key cannot be empty'));
    expect(onChange).not.toHaveBeenCalled();
    expect(rows()).toHaveLength(0);
  });

  it("a key already there is not added: 'Key cannot be duplicated'", async () => {
    const onChange = await mount([{ key: 'pile', value: 'A-01' }]);
    type('kv-new-key', ' pile ');
    fireEvent.click(q('kv-add'));
    await waitFor(() => expect(q('kv-error')?.textContent).toBe('Key cannot be duplicated'));
    expect(onChange).not.toHaveBeenCalled();
    // typing again clears the message
    type('kv-new-key', 'gun');
    await waitFor(() => expect(q('kv-error')).toBeNull());
  });

  it('adds a pair (trimmed key), clears the inputs, edits and removes kept pairs', async () => {
    const onChange = await mount([{ key: 'pile', value: 'A-01' }]);
    type('kv-new-key', ' gun ');
    type('kv-new-value', '2');
    fireEvent.keyDown(q('kv-new-value'), { key: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(rowValues()).toEqual([
        ['pile', 'A-01'],
        ['gun', '2'],
      ]),
    );
    expect(onChange).toHaveBeenLastCalledWith([
      { key: 'pile', value: 'A-01' },
      { key: 'gun', value: '2' },
    ]);
    expect(q('kv-new-key').value).toBe('');
    expect(q('kv-new-value').value).toBe('');

    fireEvent.change(rows()[1].querySelectorAll('input')[1], { target: { value: '3' } });
    expect(onChange).toHaveBeenLastCalledWith([
      { key: 'pile', value: 'A-01' },
      { key: 'gun', value: '3' },
    ]);

    fireEvent.click(rows()[0].querySelector('button') as HTMLButtonElement);
    await waitFor(() => expect(rowValues()).toEqual([['gun', '3']]));
    expect(onChange).toHaveBeenLastCalledWith([{ key: 'gun', value: '3' }]);
  });

  it('marks a kept pair whose key was edited into a duplicate', async () => {
    await mount([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
    ]);
    fireEvent.change(rows()[1].querySelector('input') as HTMLInputElement, { target: { value: 'a' } });
    await waitFor(() =>
      expect(rows()[1].querySelector('input')?.className).toContain('ant-input-status-error'),
    );
    expect(rows()[0].querySelector('input')?.className).not.toContain('ant-input-status-error');
  });

  it('disabled: no add row, no remove buttons, inputs read-only', async () => {
    await mount([{ key: 'a', value: '1' }], { disabled: true });
    expect(q('kv-add')).toBeNull();
    expect(rows()[0].querySelector('button')).toBeNull();
    expect([...rows()[0].querySelectorAll('input')].every((i) => (i as HTMLInputElement).disabled)).toBe(
      true,
    );
  });

  it('speaks Chinese in zh-CN', async () => {
    await mount([], { locale: 'zh-CN' });
    fireEvent.click(q('kv-add'));
    await waitFor(() => expect(q('kv-error')?.textContent).toBe('key不能为空'));
  });
});
