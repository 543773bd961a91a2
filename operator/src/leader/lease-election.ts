// Leader election on a coordination.k8s.io/v1 Lease, so that of several operator replicas exactly one
// reconciles. Written here because @kubernetes/client-node 1.4 ships no leader election (it arrived in
// later releases that need Node 22). The algorithm is client-go's: the holder renews renewTime every
// retry period; another candidate takes the lease over only when renewTime + leaseDuration has passed;
// every write is a replace conditioned on the resourceVersion read, so two candidates never both win.
import { V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { statusCodeOf } from '../kube/client.js';

export interface LeaseElectionOptions {
  api: CoordinationV1Api;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationSeconds?: number;
  /** How often the holder renews and candidates retry (default 2 s). */
  retryPeriodMs?: number;
  onStartedLeading: () => Promise<void> | void;
  onStoppedLeading: () => Promise<void> | void;
  logger?: Pick<Logger, 'info' | 'warn'>;
  now?: () => Date;
}

export interface LeaseElection {
  start(): void;
  /** Stops campaigning; a leader stops leading and releases the lease so another takes over at once. */
  stop(): Promise<void>;
  readonly isLeader: boolean;
}

export function createLeaseElection(options: LeaseElectionOptions): LeaseElection {
  const duration = options.leaseDurationSeconds ?? 15;
  const retryMs = options.retryPeriodMs ?? 2000;
  const now = options.now ?? (() => new Date());
  let leader = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let cycle: Promise<void> = Promise.resolve();
  /** When this candidate last renewed; it gives up leading when it could not renew within the duration. */
  let renewedAt = 0;

  const spec = (transitions: number, acquireTime: Date) => ({
    holderIdentity: options.identity,
    leaseDurationSeconds: duration,
    acquireTime: new V1MicroTime(acquireTime.getTime()),
    renewTime: new V1MicroTime(now().getTime()),
    leaseTransitions: transitions,
  });

  async function tryAcquireOrRenew(): Promise<boolean> {
    let lease: V1Lease;
    try {
      lease = await options.api.readNamespacedLease({ name: options.name, namespace: options.namespace });
    } catch (error) {
      if (statusCodeOf(error) !== 404) throw error;
      try {
        await options.api.createNamespacedLease({
          namespace: options.namespace,
          body: { metadata: { name: options.name, namespace: options.namespace }, spec: spec(0, now()) },
        });
        return true;
      } catch (createError) {
        if (statusCodeOf(createError) === 409) return false;
        throw createError;
      }
    }
    const holder = lease.spec?.holderIdentity;
    const renew = lease.spec?.renewTime ? new Date(lease.spec.renewTime as unknown as string).getTime() : 0;
    const leaseMs = (lease.spec?.leaseDurationSeconds ?? duration) * 1000;
    const mine = holder === options.identity;
    if (!mine && holder && renew + leaseMs > now().getTime()) return false;
    const transitions = (lease.spec?.leaseTransitions ?? 0) + (mine ? 0 : 1);
    const acquired = mine && lease.spec?.acquireTime ? new Date(lease.spec.acquireTime as unknown as string) : now();
    try {
      await options.api.replaceNamespacedLease({
        name: options.name,
        namespace: options.namespace,
        body: { metadata: { ...lease.metadata, name: options.name, namespace: options.namespace }, spec: spec(transitions, acquired) },
      });
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  async function tick() {
    let held = false;
    try {
      held = await tryAcquireOrRenew();
      if (held) renewedAt = now().getTime();
    } catch (error) {
      options.logger?.warn({ err: error }, 'leader election: lease update failed');
      // Keep leading through brief API trouble, but not past the lease duration.
      held = leader && now().getTime() - renewedAt < duration * 1000;
    }
    if (!running) return;
    if (held && !leader) {
      leader = true;
      options.logger?.info({ identity: options.identity }, 'leader election: started leading');
      await options.onStartedLeading();
    } else if (!held && leader) {
      leader = false;
      options.logger?.warn({ identity: options.identity }, 'leader election: stopped leading');
      await options.onStoppedLeading();
    }
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(() => {
      cycle = tick().finally(schedule);
    }, retryMs);
  }

  return {
    get isLeader() {
      return leader;
    },
    start() {
      if (running) return;
      running = true;
      cycle = tick().finally(schedule);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await cycle.catch(() => undefined);
      if (!leader) return;
      leader = false;
      await options.onStoppedLeading();
      try {
        const lease = await options.api.readNamespacedLease({ name: options.name, namespace: options.namespace });
        if (lease.spec?.holderIdentity === options.identity) {
          // Released as client-go does: no holder and a 1 s duration, so a candidate takes over at once.
          await options.api.replaceNamespacedLease({
            name: options.name,
            namespace: options.namespace,
            body: { metadata: lease.metadata!, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1 } },
          });
        }
      } catch (error) {
        options.logger?.warn({ err: error }, 'leader election: could not release the lease');
      }
    },
  };
}
