/** The API key of this browser tab: kept in session storage (gone with the tab), never in a URL. */
const KEY = 'edgeplane.apiKey';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  keep: (key: string) => sessionStorage.setItem(KEY, key),
  forget: () => sessionStorage.removeItem(KEY),
};
