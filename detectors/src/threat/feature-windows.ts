// A prompt's windows: its views (deobfuscate.ts) cut into windows, each remembered with the signals it
// may match and, for a de-obfuscated window, the base window it is a twin of.
import type { ThreatViewBuilder } from './deobfuscate.js';
import type { ThreatFeatureConfig, ThreatViewKind, ThreatWindow } from './features.js';
import type { ThreatSignalAnchors } from './signals.js';
import { threatWindowStarts } from './windows.js';

/**
 * Words split by invisible characters (countThreatWordSplits) from which a prompt carries
 * `obf.invisible`, and words of mixed-script lookalikes from which it carries `obf.homoglyph`: one or
 * two happen in copied text and keyboard-layout slips (no benign row of the training file has two
 * mixed-script words), three are an evasion.
 */
export const THREAT_WORD_SPLITS_FLAGGED = 3;
export const THREAT_HOMOGLYPH_WORDS_FLAGGED = 3;

export interface ThreatWindowCutter {
  /** The windows of every view of a raw prompt (normalisation included). */
  windows(prompt: string): ThreatWindow[];
  /** The anchor mask of a window made by windows() (the signals it may match); -1 for any other. */
  maskOf(window: ThreatWindow): number;
  /** The base window with the same text and offset as this de-obfuscated one, if there is one. */
  twinOf(window: ThreatWindow): ThreatWindow | undefined;
  /** Whether a de-obfuscated window has this base window as its twin. */
  hasTwin(window: ThreatWindow): boolean;
}

export function createThreatWindowCutter(config: ThreatFeatureConfig, viewBuilder: ThreatViewBuilder, anchors: ThreatSignalAnchors): ThreatWindowCutter {
  // The signals each window may match (threatSignalAnchors), found once per view.
  const windowMasks = new WeakMap<ThreatWindow, number>();
  // A de-obfuscated window → the base window with the same text and offset, and the base windows that have one.
  const twins = new WeakMap<ThreatWindow, ThreatWindow>();
  const hasTwins = new WeakSet<ThreatWindow>();

  const windows = (prompt: string): ThreatWindow[] => {
    const views = viewBuilder.views(prompt);
    const obfuscation: string[] = [];
    if (views.obfuscation.leet > 0) obfuscation.push('obf.leet');
    if (views.obfuscation.spaced > 0) obfuscation.push('obf.spaced');
    if (views.obfuscation.base64 > 0) obfuscation.push('obf.base64');
    if (views.obfuscation.invisible >= THREAT_WORD_SPLITS_FLAGGED) obfuscation.push('obf.invisible');
    if (views.obfuscation.homoglyph >= THREAT_HOMOGLYPH_WORDS_FLAGGED) obfuscation.push('obf.homoglyph');
    const cut = (text: string, view: ThreatViewKind, promptSignals: string[]): ThreatWindow[] => {
      const starts = threatWindowStarts(text.length, config.windowChars, config.windowStride);
      const masks = anchors.windowMasks(text, starts, config.windowChars);
      return starts.map((offset, k) => {
        const window: ThreatWindow = { view, text: text.slice(offset, offset + config.windowChars), promptSignals, offset };
        windowMasks.set(window, masks[k]!);
        return window;
      });
    };
    const out = cut(views.base, 'base', obfuscation);
    if (views.deobfuscated !== undefined) {
      const deobfuscated = cut(views.deobfuscated, 'deobfuscated', [...obfuscation, 'view.deobfuscated']);
      // Leetspeak maps code units one for one, so the two views often have the same length and most
      // windows the same text at the same offset (a text with one e-mail address in it): such a window
      // reuses its twin's vector (see fillVector in features.ts).
      if (views.deobfuscated.length === views.base.length) {
        for (let k = 0; k < deobfuscated.length; k++) {
          if (deobfuscated[k]!.text !== out[k]!.text) continue;
          twins.set(deobfuscated[k]!, out[k]!);
          hasTwins.add(out[k]!);
        }
      }
      out.push(...deobfuscated);
    }
    for (const decoded of views.decoded) out.push(...cut(decoded, 'base64', [...obfuscation, 'view.base64']));
    return out;
  };

  return {
    windows,
    maskOf: (window) => windowMasks.get(window) ?? -1,
    twinOf: (window) => twins.get(window),
    hasTwin: (window) => hasTwins.has(window),
  };
}
