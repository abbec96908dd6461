/**
 * The run channel's contract (shared/protocol/contract/runner-channel.ts): the runner's check
 * of host messages agrees with the schemas and never throws, and the provider schema's
 * `idleTimeoutMs` range is the one `idleTimeoutProblem` states (the host refuses exactly the
 * providers.json entries a runner would refuse).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { checkHostMessage } from '../../../agent-runner/host-messages';
import { HostToRunnerSchema, ProviderConfigSchema } from './runner-channel';
import { idleTimeoutProblem, MAX_IDLE_TIMEOUT_MS, MIN_IDLE_TIMEOUT_MS } from '../runner';

describe('run channel contract', () => {
  it('checkHostMessage accepts exactly the contract’s messages and never throws', () => {
    const near = fc.record(
      { type: fc.constantFrom('start', 'cancel', 'input', 'other'), reason: fc.anything(), nodeId: fc.anything(), value: fc.anything(), spec: fc.anything() },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), near), (msg) => {
        const r = checkHostMessage(msg);
        expect(r.ok).toBe(Value.Check(HostToRunnerSchema, msg));
        if (!r.ok) expect(r.problem).toMatch(/^\/\S*: /);
      }),
      { numRuns: 2000 },
    );
  });

  it('idleTimeoutMs: the schema takes exactly the values idleTimeoutProblem takes', () => {
    const values = fc.oneof(
      fc.integer({ min: MIN_IDLE_TIMEOUT_MS - 5, max: MIN_IDLE_TIMEOUT_MS + 5 }),
      fc.integer({ min: MAX_IDLE_TIMEOUT_MS - 5, max: MAX_IDLE_TIMEOUT_MS + 5 }),
      fc.double(),
      fc.anything(),
    );
    fc.assert(
      fc.property(values, (v) => {
        const entry = v === undefined ? { id: 'p', api: 'scripted' } : { id: 'p', api: 'scripted', idleTimeoutMs: v };
        expect(Value.Check(ProviderConfigSchema, entry)).toBe(idleTimeoutProblem(v) === undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
