import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { CLICK_GUARD_MS, useClickGuard } from './useClickGuard';

export type GuardedButtonProps = Omit<ButtonProps, 'onClick'> & {
  /** May return a promise: the button stays disabled until it settles (and at least `guardMs`). */
  onClick?: (event: MouseEvent<HTMLElement>) => unknown;
  /** Milliseconds the button stays disabled after a click; 500 by default (spec §9). */
  guardMs?: number;
};

/** An antd Button guarded against double clicks. */
export function GuardedButton({ onClick, guardMs = CLICK_GUARD_MS, disabled, ...rest }: GuardedButtonProps) {
  const guard = useClickGuard(onClick, guardMs);
  return <Button {...rest} disabled={disabled || guard.busy} onClick={guard.onClick} />;
}
