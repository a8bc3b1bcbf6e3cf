import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../../test/render';
import { renderInApp } from '../../../test/renderInApp';
import { PlanRowActions } from './PlanRowActions';

const link = (text: string) =>
  [...document.querySelectorAll('a')].find((a) => a.textContent?.includes(text)) as HTMLElement;
const okButton = () =>
  [...document.querySelectorAll('.ant-popover button')].find((b) => b.textContent === 'OK') as HTMLElement;

describe('PlanRowActions', () => {
  async function renderActions(remove: () => Promise<unknown>) {
    const onEdit = vi.fn();
    const onDeleted = vi.fn(async () => undefined);
    await renderInApp(
      <PlanRowActions
        confirmDelete="Delete plan Night?"
        onEdit={onEdit}
        remove={remove}
        onDeleted={onDeleted}
      />,
    );
    return { onEdit, onDeleted };
  }

  it('edits, and deletes only after the confirmation, then reloads', async () => {
    const remove = vi.fn(async () => undefined);
    const { onEdit, onDeleted } = await renderActions(remove);
    fireEvent.click(link('Edit'));
    expect(onEdit).toHaveBeenCalledTimes(1);
    fireEvent.click(link('Delete'));
    await waitFor(() => expect(document.body.textContent).toContain('Delete plan Night?'));
    expect(remove).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(okButton());
    });
    await waitFor(() => expect(onDeleted).toHaveBeenCalledTimes(1));
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('does not reload when the server refuses the delete', async () => {
    const remove = vi.fn(async () => Promise.reject(new Error('in use')));
    const { onDeleted } = await renderActions(remove);
    fireEvent.click(link('Delete'));
    await waitFor(() => expect(okButton()).toBeTruthy());
    await act(async () => {
      fireEvent.click(okButton());
    });
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
