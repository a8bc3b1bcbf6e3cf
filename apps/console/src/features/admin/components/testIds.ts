import type { ButtonProps } from 'antd';

/** Button props carrying a data-testid (antd's ButtonProps type has no data-* attributes). */
export function buttonTestId(id: string, props: ButtonProps = {}): ButtonProps {
  return { ...props, 'data-testid': id } as unknown as ButtonProps;
}
