// The security profiles' routes: CRUD and the lifecycle moves; every answer carries the profile's warnings.
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Profile, ProfileCreate, ProfileUpdate, profileWarnings, type ResourceStore } from '@palisade/core';
import type { ProfileOperations } from '../registry/profiles.js';
import { registerCrudRoutes, registerLifecycleMoves } from './crud-routes.js';
import { StatusListQuery, type ResourceRouteKit } from './route-kit.js';

const ProfileListQuery = StatusListQuery.extend({ provider_id: z.string().optional() });

/**
 * A profile answer carries its warnings as `Warning: 299 - "…"` headers (RFC 7234's "miscellaneous
 * persistent warning", the form kubectl prints for admission warnings), so scripts and the operator
 * see them without a change to the profile's schema.
 */
function warnAbout(reply: FastifyReply, profile: Profile): Profile {
  const warnings = profileWarnings(profile);
  if (warnings.length > 0) reply.header('warning', warnings.map((w) => `299 - ${JSON.stringify(w)}`));
  return profile;
}

export function registerProfileRoutes(kit: ResourceRouteKit, profiles: ProfileOperations, store: ResourceStore): void {
  const doc = { path: '/api/v1/profiles', tags: ['profiles'], records: store.profiles, model: Profile, answer: warnAbout };
  registerCrudRoutes(kit, {
    ...doc,
    summaries: {
      list: 'List security profiles',
      create: 'Create a security profile (DRAFT) for an ACTIVE provider',
      get: 'Get a security profile',
      update: 'Update a security profile (nested settings merge field by field)',
      delete: 'Delete a security profile',
    },
    descriptions: { create: 'Settings whose effect is easy to miss (e.g. content safety on responses with incremental streaming) are answered as `Warning: 299` headers.' },
    listQuery: ProfileListQuery,
    createBody: ProfileCreate,
    updateBody: ProfileUpdate,
    operations: profiles,
  });
  registerLifecycleMoves(kit, { ...doc, noun: 'a security profile' }, profiles);
}
