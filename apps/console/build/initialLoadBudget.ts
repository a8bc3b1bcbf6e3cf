import { bundleBudget, type BundleBudgetOptions } from './bundleBudget';

/**
 * The console's budget for signing in: the entry (index.html) and the login and home routes, with every
 * chunk they import statically, at most 500 kB of gzipped JavaScript and CSS. Charts, maps and the
 * rich-text editor load only on the pages that use them, so none of their modules may be in that set.
 */
export const INITIAL_LOAD: BundleBudgetOptions = {
  label: 'console initial load (login and home)',
  starts: ['index.html', 'src/features/login/pages/LoginPage.tsx', 'src/features/home/pages/HomePage.tsx'],
  budgetBytes: 500_000,
  forbiddenModules: [
    /[\\/]node_modules[\\/](echarts|echarts-for-react|zrender|leaflet|react-leaflet|@react-leaflet|@tiptap|prosemirror-[^\\/]+)[\\/]/,
  ],
};

export const initialLoadBudget = () => bundleBudget(INITIAL_LOAD);
