export const homeQueryKeys = {
  all: ['home'] as const,
  today: () => [...homeQueryKeys.all, 'today'] as const,
};
