// The skills marketplace's filter values, shared by the page (server) and its client component.
export const CATEGORIES = ['automation', 'analysis', 'social', 'trading', 'security', 'data', 'utility', 'general'] as const;
export const PRICING = ['free', 'one_time', 'subscription'] as const;
export const SORTS = ['newest', 'reputation', 'price'] as const;

export interface MarketFilters {
  search: string;
  category: (typeof CATEGORIES)[number] | '';
  pricing: (typeof PRICING)[number] | '';
  sort: (typeof SORTS)[number];
  page: number;
}
