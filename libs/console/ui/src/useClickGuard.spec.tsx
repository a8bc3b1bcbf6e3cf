import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuardedButton } from './GuardedButton';
import { CLICK_GUARD_MS } from './useClickGuard';

describe('GuardedButton', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const button = () => screen.getByRole('button', { name: 'Save' });

  it('guards for 500 ms by default (spec §9)', () => {
    expect(CLICK_GUARD_MS).toBe(500);
  });

  it('runs a double click once and is disabled for 500 ms', async () => {
    const onClick = vi.fn();
    render(<GuardedButton onClick={onClick}>Save</GuardedButton>);
    fireEvent.click(button());
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(button()).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(button()).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(button()).toHaveProperty('disabled', false);
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('stays disabled until a slow handler settles', async () => {
    let finish: () => void = () => undefined;
    const onClick = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<GuardedButton onClick={onClick}>Save</GuardedButton>);
    fireEvent.click(button());
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(button()).toHaveProperty('disabled', true);
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(button()).toHaveProperty('disabled', false);
  });

  it('takes a custom guard time', async () => {
    const onClick = vi.fn();
    render(
      <GuardedButton onClick={onClick} guardMs={1000}>
        Save
      </GuardedButton>,
    );
    fireEvent.click(button());
    await act(() => vi.advanceTimersByTimeAsync(600));
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(400));
    fireEvent.click(button());
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('gives the focus back when the guard lets go (a browser drops it from a disabled button)', async () => {
    render(<GuardedButton onClick={vi.fn()}>Save</GuardedButton>);
    button().focus();
    fireEvent.click(button());
    expect(button()).toHaveProperty('disabled', true);
    // Chromium moves the focus of a button that becomes disabled to <body>; jsdom does not, so move it.
    const elsewhere = document.body.appendChild(document.createElement('input'));
    elsewhere.focus();
    elsewhere.remove();
    expect(document.activeElement).toBe(document.body);
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(document.activeElement).toBe(button());
  });

  it('leaves the focus alone when it moved elsewhere meanwhile', async () => {
    render(
      <>
        <GuardedButton onClick={vi.fn()}>Save</GuardedButton>
        <input aria-label="name" />
      </>,
    );
    button().focus();
    fireEvent.click(button());
    screen.getByRole('textbox', { name: 'name' }).focus();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'name' }));
  });
});
