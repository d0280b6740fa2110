import { describe, expect, it } from 'vitest';
import { routeTable } from '../http/route-table';
import { ROUTES } from './routes';

describe("the API's route table", () => {
  it('finds every endpoint of the API at its own path', () => {
    const table = routeTable(ROUTES);
    for (const def of ROUTES) {
      const path = def.path.replace(/\{[^}]+\}/g, 'x1');
      const found = table.find(def.method.toUpperCase(), path);
      // The first endpoint that matches: the declaration itself, or a twin with the same policy.
      expect(found?.def.path.replace(/\{[^}]+\}/g, 'x1'), `${def.method} ${def.path}`).toBe(path);
    }
  });
});
