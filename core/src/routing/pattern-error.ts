/** A routing pattern that cannot be compiled; the message is meant for a 400 reply of the registry. */
export class RoutePatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoutePatternError';
  }
}
