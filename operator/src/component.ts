// The operator as the CLI runs it: a Kubernetes client from KUBECONFIG (or the in-cluster service
// account), a bundle publisher on the registry database, the reconcile controller, and Lease-based
// leader election so that only one replica reconciles at a time.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { createBundlePublisher, envBool, envInt, envString, parseEnv, type Database, type PubSub, type SecretBox } from '@palisade/core';
import { createController, type Controller } from './controller/controller.js';
import { createKubeClient, loadKubeConfig, type KubeClient } from './kube/client.js';
import { createLeaseElection, type LeaseElection } from './leader/lease-election.js';

export const OPERATOR_ENV = {
  /** Path of a kubeconfig file; the in-cluster service account (or ~/.kube/config) when unset. */
  KUBECONFIG: envString(),
  /** API server URL without credentials (tests, `kubectl proxy`); wins over KUBECONFIG. */
  OPERATOR_KUBE_SERVER: envString(),
  /** Watch only this namespace; every namespace when unset. The Lease lives here too. */
  OPERATOR_NAMESPACE: envString(),
  OPERATOR_RESYNC_SECONDS: envInt(0, 86_400, 60),
  OPERATOR_LEADER_ELECTION: envBool(true),
  OPERATOR_LEASE_NAME: envString('palisade-operator'),
  /** Namespace of the Lease when OPERATOR_NAMESPACE is unset (the pod's own namespace in a cluster). */
  OPERATOR_LEASE_NAMESPACE: envString('palisade'),
  OPERATOR_LEASE_DURATION_SECONDS: envInt(2, 300, 15),
  OPERATOR_LEASE_RETRY_SECONDS: envInt(1, 60, 2),
  /** This replica's name in the Lease; the pod name (HOSTNAME) by default. */
  OPERATOR_IDENTITY: envString(),
} as const;

export interface OperatorComponentDeps {
  db: Database;
  secrets: SecretBox;
  /** Bundle change notices go out here. */
  pubsub: PubSub;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** A client to use instead of one from the environment (tests). */
  kube?: KubeClient;
  /** Retry delay of the first failed reconcile (tests shorten it). */
  baseBackoffMs?: number;
}

export interface OperatorComponent {
  readonly kube: KubeClient;
  /** Whether this replica currently reconciles. */
  readonly isLeader: boolean;
  /** Resolves when the running controller has nothing queued (immediately when not leading). */
  idle(): Promise<void>;
  /** Enqueues every resource now (what the periodic resync does). */
  resync(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createOperatorComponent(deps: OperatorComponentDeps): OperatorComponent {
  const env = parseEnv(OPERATOR_ENV, deps.env ?? process.env);
  const logger = deps.logger?.child({ service: 'operator' });
  const kube =
    deps.kube ?? createKubeClient(loadKubeConfig({ server: env.OPERATOR_KUBE_SERVER, kubeconfig: env.KUBECONFIG }));
  const publisher = createBundlePublisher({ db: deps.db, pubsub: deps.pubsub, ...(logger ? { logger } : {}) });
  let controller: Controller | undefined;
  let election: LeaseElection | undefined;

  async function lead() {
    controller = createController({
      kube,
      db: deps.db,
      secrets: deps.secrets,
      publisher,
      namespace: env.OPERATOR_NAMESPACE,
      resyncMs: env.OPERATOR_RESYNC_SECONDS * 1000,
      ...(logger ? { logger } : {}),
      ...(deps.baseBackoffMs !== undefined ? { baseBackoffMs: deps.baseBackoffMs } : {}),
    });
    await controller.start();
  }

  async function follow() {
    const running = controller;
    controller = undefined;
    await running?.stop();
  }

  return {
    kube,
    get isLeader() {
      return election ? election.isLeader : controller !== undefined;
    },
    idle: () => controller?.idle() ?? Promise.resolve(),
    resync: () => controller?.resync(),
    async start() {
      await publisher.start();
      if (!env.OPERATOR_LEADER_ELECTION) return lead();
      election = createLeaseElection({
        api: kube.coordination,
        namespace: env.OPERATOR_NAMESPACE ?? env.OPERATOR_LEASE_NAMESPACE!,
        name: env.OPERATOR_LEASE_NAME!,
        identity: env.OPERATOR_IDENTITY ?? `${process.env.HOSTNAME ?? hostname()}-${randomBytes(3).toString('hex')}`,
        leaseDurationSeconds: env.OPERATOR_LEASE_DURATION_SECONDS,
        retryPeriodMs: env.OPERATOR_LEASE_RETRY_SECONDS * 1000,
        onStartedLeading: lead,
        onStoppedLeading: follow,
        ...(logger ? { logger } : {}),
      });
      election.start();
    },
    async stop() {
      if (election) await election.stop();
      else await follow();
      await publisher.stop();
    },
  };
}
