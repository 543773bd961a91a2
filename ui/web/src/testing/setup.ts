// Component tests run in jsdom; nothing to set up yet beyond the environment.
export {};
