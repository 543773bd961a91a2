// The translate contract as the gateway names it: the detectors' own request and answer types.
import type { Detector, TranslateRequest, TranslateResponse } from '@palisade/detectors';

export type TranslateCall = TranslateRequest;
export type TranslateAnswer = TranslateResponse;
export type TranslationDetector = Detector<TranslateCall, TranslateAnswer>;
