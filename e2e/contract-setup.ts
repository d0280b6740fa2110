import { checkedFetch } from '../test/contract';

// Every e2e suite talks to real servers with the global fetch: wrapped here, each answer from an
// /api path is validated against the OpenAPI document (test/contract.ts), so a mismatch fails the
// test that received it.
globalThis.fetch = checkedFetch(globalThis.fetch);
