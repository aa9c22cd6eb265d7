/** Whether a hardened realm may serve another episode (a submission's, or a champion's game). */
import { getHeapStatistics } from 'node:v8';
import type { PolicyRealm } from './policyRealm';

/**
 * Episodes a hardened realm serves before it is replaced. A realm keeps what a policy leaves
 * behind that no later episode can observe: promise callbacks it queued (they never run) and
 * compiled code. Replacing it costs a few ms (context, freezing, code going cold again), so it
 * is kept long, and dropped early when the heap fills up (checked every few episodes).
 */
const MAX_EPISODES_PER_REALM = 4096;
const HEAP_CHECK_EVERY = 32;
const MAX_HEAP_FRACTION = 0.5;

export function reusableRealm(realm: PolicyRealm): boolean {
  if (realm.episodes >= MAX_EPISODES_PER_REALM) return false;
  if (realm.episodes % HEAP_CHECK_EVERY !== 0) return true;
  const heap = getHeapStatistics();
  return heap.used_heap_size < heap.heap_size_limit * MAX_HEAP_FRACTION;
}
