import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hasPermission, Permission, PermissionProvider, usePermission } from './Permission';

function Probe({ code }: { code: string | string[] }) {
  return <span data-testid="probe">{String(usePermission(code))}</span>;
}

describe('permissions', () => {
  it.each([
    ['held code', 'go_screen', true],
    ['missing code', 'sys:user:add', false],
    ['every code held', ['go_screen', 'sys:log'], true],
    ['one code missing', ['go_screen', 'sys:user:add'], false],
    ['empty list', [], true],
  ] as const)('hasPermission: %s', (_label, code, expected) => {
    expect(hasPermission(new Set(['go_screen', 'sys:log']), code)).toBe(expected);
  });

  it('usePermission reads the provider', () => {
    render(
      <PermissionProvider permissions={['sys:log']}>
        <Probe code="sys:log" />
      </PermissionProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('true');
  });

  it('holds nothing without a provider', () => {
    render(<Probe code="sys:log" />);
    expect(screen.getByTestId('probe').textContent).toBe('false');
  });

  it('<Permission> hides its children without the code, or shows the fallback', () => {
    render(
      <PermissionProvider permissions={['sys:log:operation']}>
        <Permission code="sys:log:operation">
          <button>Export</button>
        </Permission>
        <Permission code="sys:user:add">
          <button>Add user</button>
        </Permission>
        <Permission code="go_screen" fallback={<span>no big screen</span>}>
          <button>Big screen</button>
        </Permission>
      </PermissionProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Big screen' })).toBeNull();
    expect(screen.getByText('no big screen')).toBeTruthy();
  });
});
