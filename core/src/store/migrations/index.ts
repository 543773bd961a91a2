import { sql as initial } from './001-initial.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration in order. Append new ones; never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: initial }];
