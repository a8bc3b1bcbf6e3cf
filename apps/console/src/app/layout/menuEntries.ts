import type { ResourceNode } from '@voltdepot/console-api-client';
import { resourceLabelKey } from '../../locales/resourceLabels';

/** One entry of the side menu: a page (key = its path) or a group (key = `group:<code>`). */
export type MenuEntry = {
  key: string;
  code: string;
  label: string;
  path?: string;
  children?: MenuEntry[];
};

/**
 * The side menu from the user's menu resources (spec §6: the menu checks the user's resources).
 * A resource is shown only when its path is a page the console has (`isPage`); a group only when
 * something is left in it. Hidden resources and buttons never show.
 */
export function buildMenuEntries(
  nodes: readonly ResourceNode[],
  isPage: (path: string) => boolean,
  label: (node: ResourceNode) => string,
): MenuEntry[] {
  return nodes.flatMap((node): MenuEntry[] => {
    if (node.type !== 'menu' || !node.visible) return [];
    const children = buildMenuEntries(node.children ?? [], isPage, label);
    const ownPage = node.path !== null && isPage(node.path);
    if (children.length > 0) {
      const own: MenuEntry[] = ownPage
        ? [{ key: node.path as string, code: node.code, label: label(node), path: node.path as string }]
        : [];
      return [
        { key: `group:${node.code}`, code: node.code, label: label(node), children: [...own, ...children] },
      ];
    }
    return ownPage
      ? [{ key: node.path as string, code: node.code, label: label(node), path: node.path as string }]
      : [];
  });
}

/** Keys of the groups above the page at `path` (to open them), outermost first; [] when not in the menu. */
export function groupKeysAbove(entries: readonly MenuEntry[], path: string): string[] {
  for (const entry of entries) {
    if (entry.path === path && !entry.children) return [];
    if (entry.children) {
      const inner = groupKeysAbove(entry.children, path);
      if (inner.length > 0 || entry.children.some((child) => child.path === path && !child.children)) {
        return [entry.key, ...inner];
      }
    }
  }
  return [];
}

/** The i18n key of a resource's label: `menu.<code>` with ':' as '_' (i18next reserves ':'). */
export function menuLabelKey(code: string): string {
  return `menu.${resourceLabelKey(code)}`;
}

/**
 * A resource's label in the current language: the translation of its code, which every seeded resource
 * (menu or button) has in both languages, else its stored name (a resource an administrator created).
 */
export function resourceLabel(
  node: Pick<ResourceNode, 'code' | 'name'>,
  i18n: { exists(key: string): boolean; t(key: never): unknown },
): string {
  const key = menuLabelKey(node.code);
  return i18n.exists(key) ? String(i18n.t(key as never)) : node.name;
}

/**
 * The path ProLayout gets for a group, which has no page. ProLayout matches menu paths with
 * path-to-regexp, so it holds only letters, digits, '-' and '_': a resource code such as
 * `operation:orderManage` would otherwise read as route parameters and throw on every navigation.
 */
export function groupMenuPath(code: string): string {
  return `/menu-group/${code.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
