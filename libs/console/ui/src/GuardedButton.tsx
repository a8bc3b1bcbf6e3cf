import { Button, type ButtonProps } from 'antd';
import { useEffect, useRef, type MouseEvent } from 'react';
import { CLICK_GUARD_MS, useClickGuard } from './useClickGuard';

export type GuardedButtonProps = Omit<ButtonProps, 'onClick'> & {
  /** May return a promise: the button stays disabled until it settles (and at least `guardMs`). */
  onClick?: (event: MouseEvent<HTMLElement>) => unknown;
  /** Milliseconds the button stays disabled after a click; 500 by default (spec §9). */
  guardMs?: number;
};

/** An antd Button guarded against double clicks. */
export function GuardedButton({ onClick, guardMs = CLICK_GUARD_MS, disabled, ...rest }: GuardedButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  // Browsers move focus to <body> when a focused button becomes disabled, which in a dialog stops
  // Escape closing it; the focus comes back when the guard lets go, unless it went somewhere else.
  const hadFocus = useRef(false);
  const guard = useClickGuard((event: MouseEvent<HTMLElement>) => {
    hadFocus.current = button.current !== null && document.activeElement === button.current;
    return onClick?.(event);
  }, guardMs);
  useEffect(() => {
    if (guard.busy || !hadFocus.current) return;
    hadFocus.current = false;
    const active = document.activeElement;
    if (!active || active === document.body) button.current?.focus();
  }, [guard.busy]);
  return <Button {...rest} ref={button} disabled={disabled || guard.busy} onClick={guard.onClick} />;
}
