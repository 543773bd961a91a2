// The threat detector's constants: its port (spec: Threat Detector, 8090), paths and input bounds.

export const THREAT_DETECTOR_PORT = 8090;
export const THREAT_DETECT_PATH = '/api/v1/detect';
export const THREAT_DEVICE_INFO_PATH = '/api/v1/device-info';

export const THREAT_LIMITS = {
  /** Longest user_prompt scored, in characters (a 128k-token context is roughly 500k characters). */
  maxPromptChars: 1_000_000,
  /** HTTP body limit: the longest prompt in UTF-8 Cyrillic with JSON escapes fits. */
  bodyLimitBytes: 8 * 1024 * 1024,
  /** Windows per onnxruntime run; a longer prompt runs in chunks and yields to the event loop between them. */
  windowsPerRun: 64,
  /** Decision threshold when neither the request nor the detector options set one. */
  defaultThreshold: 0.5,
} as const;
