import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, type AnyEndpoint } from './endpoint';
import { routeTable } from './route-table';

const declare = (method: 'get' | 'post', path: string): AnyEndpoint =>
  endpoint({
    method,
    path,
    summary: path,
    tags: [],
    auth: 'none',
    status: 200,
    response: z.object({}),
    handler: async () => ({}),
  });

describe('the route table', () => {
  it('finds the first declared endpoint whose method and path match, as the Hono router does', () => {
    const byId = declare('get', '/api/things/{id}');
    const mine = declare('get', '/api/things/mine');
    const create = declare('post', '/api/things');
    const table = routeTable([byId, mine, create]);
    // Registered first, the parameter route takes the static path too.
    expect(table.find('GET', '/api/things/mine')).toEqual({ def: byId, params: { id: 'mine' } });
    expect(routeTable([mine, byId]).find('GET', '/api/things/mine')).toEqual({ def: mine, params: {} });
    expect(table.find('GET', '/api/things/42')).toEqual({ def: byId, params: { id: '42' } });
    expect(table.find('POST', '/api/things')?.def).toBe(create);
  });

  it('ignores one trailing slash, and matches a parameter as one whole segment', () => {
    const byId = declare('get', '/api/things/{id}/card.json');
    const list = declare('get', '/api/things');
    const table = routeTable([list, byId]);
    expect(table.find('GET', '/api/things/')?.def).toBe(list);
    expect(table.find('GET', '/api/things//')).toBeNull();
    expect(table.find('GET', '/api/things/7/card.json/')?.params).toEqual({ id: '7' });
    expect(table.find('GET', '/api/things/7/8/card.json')).toBeNull();
    // A dot in a declared path is a dot.
    expect(table.find('GET', '/api/things/7/cardXjson')).toBeNull();
    expect(table.find('POST', '/api/things')).toBeNull();
    expect(table.find('GET', '/api/Things')).toBeNull();
  });

  it('lists the methods declared at a path', () => {
    const table = routeTable([declare('get', '/api/things'), declare('post', '/api/things'), declare('get', '/api/things/{id}')]);
    expect(table.methodsAt('/api/things')).toEqual(['GET', 'POST']);
    expect(table.methodsAt('/api/things/3')).toEqual(['GET']);
    expect(table.methodsAt('/api/nothing')).toEqual([]);
  });
});
