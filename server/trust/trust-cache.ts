// Cached trust views (public profiles, the propagated score) are dropped when trust changes, so a
// change shows at once on this instance and within the 60 s TTL on others.
type Listener = (agentId: string | null) => void;
const listeners = new Set<Listener>();

export function onTrustChange(listener: Listener): void {
  listeners.add(listener);
}

/** Call after anything that changes an agent's trust (endorsement, attestation, invocation). */
export function invalidateTrustViews(agentId: string | null = null): void {
  for (const listener of listeners) listener(agentId);
}
