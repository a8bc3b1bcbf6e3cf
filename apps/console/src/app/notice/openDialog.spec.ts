import { describe, expect, it } from 'vitest';
import { isDialogOpen } from './openDialog';

function page(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('whether a dialog is open', () => {
  it('sees an open modal, not a hidden one', () => {
    expect(isDialogOpen(page('<div class="ant-modal-root"><div class="ant-modal-wrap"></div></div>'))).toBe(
      true,
    );
    expect(
      isDialogOpen(
        page('<div class="ant-modal-root"><div class="ant-modal-wrap" style="display: none"></div></div>'),
      ),
    ).toBe(false);
  });

  it('sees an open drawer, not a closed one', () => {
    expect(isDialogOpen(page('<div class="ant-drawer ant-drawer-right ant-drawer-open"></div>'))).toBe(true);
    expect(isDialogOpen(page('<div class="ant-drawer ant-drawer-right"></div>'))).toBe(false);
  });

  it('follows a custom prefix', () => {
    const custom = { modal: 'vd-modal', drawer: 'vd-drawer' };
    expect(isDialogOpen(page('<div class="vd-modal-wrap"></div>'), custom)).toBe(true);
    expect(isDialogOpen(page('<div class="ant-modal-wrap"></div>'), custom)).toBe(false);
  });

  it('sees nothing on an empty page', () => {
    expect(isDialogOpen(page('<main></main>'))).toBe(false);
  });
});
