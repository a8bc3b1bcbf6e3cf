import { act, fireEvent } from '@testing-library/react';
import type { MsgConfigDto, MsgTemplateDto } from '@voltdepot/shared-contracts';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { TemplateDialog, type TemplateDialogMode } from './TemplateDialog';

// Whole antd/ProComponents dialogs in jsdom take seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const configs: MsgConfigDto[] = [
  {
    id: 7,
    configName: 'Depot mail',
    fullName: 'Alarm mail',
    channel: 'EMAIL',
    provider: null,
    settings: {},
    status: 'DEFAULT',
    username: 'admin',
    createTime: '2026-03-01 08:00:00',
    updateTime: '2026-03-01 08:00:00',
  },
];

const typeOptions = [
  { value: '0', label: 'None' },
  { value: '1', label: 'Link' },
  { value: '2', label: 'Email' },
];

const stored: MsgTemplateDto = {
  id: 42,
  configId: 7,
  templateName: 'Abnormal stop',
  config: { configName: 'Depot mail', fullName: 'Alarm mail' },
  content: '<p>Pile ${pile} stopped: ${reason}</p>',
  msgKey: 'SMS_1',
  type: '2',
  parameters: { pile: 'unknown', code: '${reasonCode}' },
  username: 'admin',
  editable: true,
  createTime: '2026-03-01 08:00:00',
  updateTime: '2026-03-02 09:30:00',
};

async function open(
  mode: TemplateDialogMode,
  routes: Parameters<typeof stubApi>[0] = {},
  template?: MsgTemplateDto,
) {
  const api = stubApi(routes);
  const onClose = vi.fn();
  const onSaved = vi.fn();
  await renderInApp(
    <TemplateDialog
      mode={mode}
      template={template}
      configs={configs}
      typeOptions={typeOptions}
      onClose={onClose}
      onSaved={onSaved}
    />,
  );
  await waitFor(() => expect(document.querySelector('.ant-modal')).not.toBeNull(), 20_000);
  return { ...api, onClose, onSaved };
}

const body = () => document.body.textContent ?? '';
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const button = (text: string) =>
  [...document.querySelectorAll('button')].find(
    (b) => b.textContent?.replace(/\s/g, '') === text.replace(/\s/g, ''),
  );
const input = (id: string) => document.querySelector(`#${id}`) as HTMLInputElement;

async function choose(fieldId: string, label: string) {
  const select = input(fieldId).closest('.ant-select') as HTMLElement;
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') as HTMLElement);
  await waitFor(() =>
    expect(
      [...document.querySelectorAll('.ant-select-item-option')].some((o) => o.textContent === label),
    ).toBe(true),
  );
  const option = [...document.querySelectorAll('.ant-select-item-option')].find(
    (o) => o.textContent === label,
  );
  fireEvent.click(option as HTMLElement);
}

describe('template dialog', () => {
  it('add: 70 % wide with the spec title, and the three required messages when empty', async () => {
    const { calls } = await open('add');
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Add template');
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('70%');
    // type defaults to '0' (none): clear nothing, the other two are missing
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() =>
      expect(errors()).toEqual(['Please select configuration ID', 'Please enter template name']),
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows the editor 40vh high with the ${XXX} hint', async () => {
    await open('add');
    const content = document.querySelector('[data-testid="rich-text-content"]') as HTMLElement;
    expect(content.style.height).toBe('40vh');
    expect(body()).toContain('Variables are written as ${XXX}');
  });
});

async function fillRequired() {
  await choose('configId', 'Depot mail (Alarm mail)');
  fireEvent.change(input('templateName'), { target: { value: '  Pile fault  ' } });
}

async function addPair(key: string, value: string) {
  const editor = document.querySelector('[data-testid="key-value-editor"]') as HTMLElement;
  fireEvent.change(editor.querySelector('[data-testid="kv-new-key"]') as HTMLInputElement, {
    target: { value: key },
  });
  fireEvent.change(editor.querySelector('[data-testid="kv-new-value"]') as HTMLInputElement, {
    target: { value },
  });
  fireEvent.click(editor.querySelector('[data-testid="kv-add"]') as HTMLButtonElement);
}

describe('template dialog saving', () => {
  it('type is required: clearing it shows the spec message', async () => {
    await open('add');
    const select = input('type').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.mouseDown(select.querySelector('.ant-select-clear') as HTMLElement);
    await fillRequired();
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(errors()).toEqual(['Please select extension content']));
  });

  it('add: posts the form with the parameters as a map and says so only when an id comes back', async () => {
    const { calls, onSaved } = await open('add', { 'POST /ms/m1/msg/template': () => ({ id: 9 }) });
    await fillRequired();
    fireEvent.change(input('msgKey'), { target: { value: 'SMS_77' } });
    await addPair('pile', 'unknown');
    await addPair('code', '${reasonCode}');
    // typed but never added: not saved (spec §5)
    const editor = document.querySelector('[data-testid="key-value-editor"]') as HTMLElement;
    fireEvent.change(editor.querySelector('[data-testid="kv-new-key"]') as HTMLInputElement, {
      target: { value: 'forgotten' },
    });
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(body()).toContain('Added successfully'));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/ms/m1/msg/template');
    expect(post?.body).toEqual({
      configId: 7,
      templateName: 'Pile fault',
      type: '0',
      content: '',
      msgKey: 'SMS_77',
      parameters: { pile: 'unknown', code: '${reasonCode}' },
      editable: true,
    });
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it("add: an answer without an id is not 'Added successfully' and the dialog stays", async () => {
    const { calls, onSaved } = await open('add', { 'POST /ms/m1/msg/template': () => ({}) });
    await fillRequired();
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(body()).not.toContain('Added successfully');
    expect(onSaved).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Add template');
  });

  it('a server validation error is shown and the dialog stays open', async () => {
    const { onSaved } = await open('add', {
      'POST /ms/m1/msg/template': () =>
        new Response(JSON.stringify({ code: 'VALIDATION', message: 'Please do not exceed 10MB' }), {
          status: 400,
          headers: { 'content-type': 'application/json' },
        }),
    });
    await fillRequired();
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(body()).toContain('Please do not exceed 10MB'));
    expect(onSaved).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Add template');
  });

  it('refuses a parameter list whose keys repeat (after editing a kept pair)', async () => {
    const { calls } = await open('edit', {}, stored);
    const rows = document.querySelectorAll('[data-testid="kv-row"]');
    expect(rows).toHaveLength(2);
    fireEvent.change(rows[1].querySelector('input') as HTMLInputElement, { target: { value: 'pile' } });
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(errors()).toEqual(['Key cannot be duplicated']));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('edit: the spec title, the stored values, and a PUT that includes the id', async () => {
    const { calls, onSaved } = await open(
      'edit',
      { 'PUT /ms/m1/msg/template/42': () => ({ id: 42 }) },
      stored,
    );
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Modify template');
    expect(input('templateName').value).toBe('Abnormal stop');
    expect(document.querySelector('[data-testid="rich-text-content"]')?.innerHTML).toContain(
      'Pile ${pile} stopped: ${reason}',
    );
    expect(document.querySelector('[data-testid="variables-used"]')?.textContent).toContain(
      '${pile}${reason}',
    );
    fireEvent.change(input('templateName'), { target: { value: 'Abnormal stop v2' } });
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(body()).toContain('Modified successfully'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      id: 42,
      configId: 7,
      templateName: 'Abnormal stop v2',
      type: '2',
      content: '<p>Pile ${pile} stopped: ${reason}</p>',
      msgKey: 'SMS_1',
      parameters: { pile: 'unknown', code: '${reasonCode}' },
      editable: true,
    });
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it("edit of a template whose configuration is not in the list logs 'Configuration type mismatch'", async () => {
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { calls } = await open('edit', {}, { ...stored, configId: 99 });
    expect(errorLog).toHaveBeenCalledWith('Configuration type mismatch');
    fireEvent.click(button('OK') as HTMLButtonElement);
    await waitFor(() => expect(errors()).toEqual(['Please select configuration ID']));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('details: the spec title, every field disabled, times shown, no save button', async () => {
    await open('details', {}, stored);
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('Template details');
    expect(input('templateName').disabled).toBe(true);
    expect(input('msgKey').disabled).toBe(true);
    expect(document.querySelector('.ant-select-disabled #configId')).not.toBeNull();
    expect(document.querySelector('[data-testid="kv-add"]')).toBeNull();
    expect(
      [...document.querySelectorAll('[data-testid="kv-row"] input')].every(
        (i) => (i as HTMLInputElement).disabled,
      ),
    ).toBe(true);
    expect(document.querySelector('.ProseMirror')?.getAttribute('contenteditable')).toBe('false');
    expect(body()).toContain('2026-03-01 08:00:00');
    expect(body()).toContain('2026-03-02 09:30:00');
    expect(button('OK')).toBeUndefined();
  });
});

describe('rich-text image upload', () => {
  const pick = async (file: File) => {
    const fileInput = document.querySelector('[data-testid="rich-text-image-input"]') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(fileInput, { target: { files: [file] } });
    });
  };
  const fileOf = (size: number, type: string) => {
    const file = new File(['x'], 'photo.png', { type });
    Object.defineProperty(file, 'size', { value: size });
    return file;
  };

  it("refuses an image above 10 MB with 'Please do not exceed 10MB'", async () => {
    await open('add');
    await pick(fileOf(10_485_761, 'image/png'));
    await waitFor(() => expect(body()).toContain('Please do not exceed 10MB'));
    expect(document.querySelector('.ProseMirror img')).toBeNull();
  });

  it('refuses a file that is not an image', async () => {
    await open('add');
    await pick(fileOf(100, 'application/pdf'));
    await waitFor(() => expect(body()).toContain('Only PNG, JPEG, GIF or WebP images can be inserted'));
    expect(document.querySelector('.ProseMirror img')).toBeNull();
  });

  it('embeds an image of exactly 10 MB as a data URL', async () => {
    await open('add');
    await pick(fileOf(10_485_760, 'image/png'));
    await waitFor(() =>
      expect(document.querySelector('.ProseMirror img')?.getAttribute('src')).toMatch(
        /^data:image\/png;base64,/,
      ),
    );
    expect(body()).not.toContain('Please do not exceed 10MB');
  });
});
