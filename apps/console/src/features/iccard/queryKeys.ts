/** The IC-card lists; each one's pages share its key (a mutation invalidates the list). */
export type IcCardList =
  | 'companies'
  | 'customers'
  | 'cards'
  | 'actions'
  | 'accounts'
  | 'records'
  | 'consumptions'
  | 'groupCustomers';

export const icCardQueryKeys = {
  all: ['iccard'] as const,
  list: (name: IcCardList) => [...icCardQueryKeys.all, name] as const,
  group: (id: number) => [...icCardQueryKeys.all, 'group', id] as const,
  card: (cardNo: string) => [...icCardQueryKeys.all, 'card', cardNo] as const,
  options: (name: 'companies' | 'groups') => [...icCardQueryKeys.all, 'options', name] as const,
};
