import { ConfigProvider } from 'antd';
import { useContext, useEffect, useState } from 'react';

export type DialogClasses = { modal: string; drawer: string };

/**
 * Whether an antd Modal (including the static confirm/info ones) or Drawer is open under `root`. A closed
 * modal that stays mounted keeps its wrapper with `display: none`; an open drawer carries `<drawer>-open`.
 */
export function isDialogOpen(
  root: ParentNode,
  { modal, drawer }: DialogClasses = { modal: 'ant-modal', drawer: 'ant-drawer' },
): boolean {
  if (root.querySelector(`.${drawer}-open`)) return true;
  return [...root.querySelectorAll<HTMLElement>(`.${modal}-wrap`)].some(
    (wrap) => wrap.style.display !== 'none',
  );
}

/**
 * Whether an antd Modal or Drawer is open anywhere on the page. antd keeps no registry of open dialogs
 * (they render into portals from anywhere), so the page's DOM is watched while this hook is mounted.
 */
export function useDialogOpen(): boolean {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const modal = getPrefixCls('modal');
  const drawer = getPrefixCls('drawer');
  const [open, setOpen] = useState(() => isDialogOpen(document.body, { modal, drawer }));
  useEffect(() => {
    const check = () => setOpen(isDialogOpen(document.body, { modal, drawer }));
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['class', 'style'],
    });
    return () => observer.disconnect();
  }, [modal, drawer]);
  return open;
}
